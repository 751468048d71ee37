import MockIDPCore
import MockIDPHTTP

/// One route of the server, as the edge runs it: the middleware that stands in front of its handler, in order,
/// and the handler, which gets the request's context resolved once at the edge.
struct Route: Sendable {
    /// Answers a request whose path matched, with the path's captures and the request's context.
    typealias Handler = @Sendable (HTTPRequest, RouteParameters, RequestScope) -> HTTPResponse

    /// How a request for a tenant that its host does not serve is refused (Entra's AADSTS90002).
    enum HostRefusal: Sendable {
        /// As JSON; `discovery` gives `invalid_tenant` (discovery documents and key sets).
        case json(discovery: Bool)
        /// As the error page (endpoints a browser visits).
        case page
    }

    /// Where a route's request names its B2C policy, so the edge can resolve the dialect once.
    enum PolicySource: Sendable {
        /// The `{policy}` segment of a B2C path (`/tfp/…`, `/te/…`, `/{tenant}/{policy}/…`).
        case path
        /// `?p=` in the query.
        case query
        /// `p` among the protocol parameters: the query of a GET, the form of a POST (the pages post it).
        case parameters
        /// Never a policy (the v1 endpoints, the device code endpoint): only a B2C tenant's own error.
        case never
    }

    /// The path template (`{tenant}` routes are the ones the host refusal applies to).
    let template: String
    let hostRefusal: HostRefusal?
    /// Where injected faults apply (`FaultSite.name` nil: none).
    let faultSite: FaultSite?
    /// How the edge resolves the dialect (`{tenant}` routes only), and the status of B2C's error (404 for
    /// metadata documents, as B2C answers them).
    let policySource: PolicySource?
    let dialectErrorStatus: Int
    /// The protocol version of the endpoint (Entra's dialect at it is `.entra(version)`).
    let version: ProtocolVersion
    /// Whether the control API's access rule stands in front (`--no-admin`, `--admin-token`, loopback only).
    let controlAccess: Bool
    let handle: Handler

    init(template: String, hostRefusal: HostRefusal?, faultSite: FaultSite?, policySource: PolicySource? = nil,
         dialectErrorStatus: Int = 400, version: ProtocolVersion = .v2, controlAccess: Bool = false, handle: @escaping Handler) {
        self.template = template
        // A parameter is a whole segment. (`contains` would bind to Foundation's overload in this module, which runs
        // CoreFoundation's string search and faults in its Unicode tables while the server starts.)
        let namesTenant = template.split(separator: "/").contains("{tenant}")
        self.hostRefusal = namesTenant ? hostRefusal : nil
        self.faultSite = faultSite?.name == nil ? nil : faultSite
        self.policySource = namesTenant ? policySource : nil
        self.dialectErrorStatus = dialectErrorStatus
        self.version = version
        self.controlAccess = controlAccess
        self.handle = handle
    }

    /// The policy `request` names, by this route's rule.
    private func policy(_ request: HTTPRequest, _ parameters: RouteParameters) -> String? {
        switch policySource {
        case .path?: return parameters["policy"]
        case .query?: return request.queryValue("p")
        case .parameters?:
            guard request.method == "POST" else { return request.queryValue("p") }
            return (try? URLEncodedForm.decode(request.body))?.first { $0.name == "p" }?.value
        case .never?, nil: return nil
        }
    }

    /// Runs the middleware, then the handler: the control API's access rule and its cross-site refusal; the dialect; the host refusal (a
    /// tenant of another cloud is not found there, whatever fault waits); an injected fault; then the endpoint.
    /// (The request log is the edge's, around all of it: `Routes.respond`.)
    func respond(_ request: HTTPRequest, _ parameters: RouteParameters, _ context: RequestScope,
                 _ handlers: EndpointHandlers) -> HTTPResponse {
        if controlAccess, let refusal = handlers.controlAccessRefusal(request) ?? handlers.crossSiteRefusal(request, context: context) {
            return refusal
        }
        var context = context
        context.dialect = .entra(version)
        var dialectRefusal: OAuthError?
        if policySource != nil {
            // The dialect, decided once: everything below reads `context.dialect`.
            switch Dialect.resolve(tenantSegment: parameters["tenant"] ?? "", policy: policy(request, parameters),
                                   form: policySource == .path ? .path : .query, version: version,
                                   status: dialectErrorStatus, in: context.directory) {
            case .success(let dialect):
                context.dialect = dialect
                if case .b2c(let b2c) = dialect {
                    context.errorDialect = .b2c(tenant: b2c.tenantSegment, clientID: EndpointHandlers.clientID(of: request))
                }
            case .failure(let error):
                dialectRefusal = error
            }
        }
        if let hostRefusal, context.hostScope != .neutral,
           let refusal = handlers.provider.hostRefusal(tenantSegment: parameters["tenant"] ?? "", context: context,
                                                       forDiscovery: hostRefusal.isDiscovery) {
            return render(refusal, context, handlers)
        }
        // A missing or unknown B2C policy: B2C's error, on a page where a browser came, before anything else runs.
        if let dialectRefusal { return render(dialectRefusal, context, handlers) }
        if let faultSite {
            return handlers.applyingFaults(faultSite, request, parameters, context) { handle(request, parameters, context) }
        }
        return handle(request, parameters, context)
    }

    /// `error` as this route answers errors before its handler runs: the error page where a browser comes (authorize,
    /// logout), JSON elsewhere.
    private func render(_ error: OAuthError, _ context: RequestScope, _ handlers: EndpointHandlers) -> HTTPResponse {
        hostRefusal?.isPage == true ? handlers.errorPage(error, context: context) : handlers.oauthError(error, context: context)
    }
}

extension Route.HostRefusal {
    var isDiscovery: Bool { if case .json(let discovery) = self { discovery } else { false } }
    var isPage: Bool { if case .page = self { true } else { false } }
}
