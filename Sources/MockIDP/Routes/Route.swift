import MockIDPCore
import MockIDPHTTP

/// One route of the server, as the edge runs it: the middleware that stands in front of its handler, in order,
/// and the handler, which gets the request's context resolved once at the edge.
struct Route: Sendable {
    /// Answers a request whose path matched, with the path's captures and the request's context.
    typealias Handler = @Sendable (HTTPRequest, RouteParameters, RequestContext) -> HTTPResponse

    /// How a request for a tenant that its host does not serve is refused (Entra's AADSTS90002).
    enum HostRefusal: Sendable {
        /// As JSON; `discovery` gives `invalid_tenant` (discovery documents and key sets).
        case json(discovery: Bool)
        /// As the error page (endpoints a browser visits).
        case page
    }

    /// The path template (`{tenant}` routes are the ones the host refusal applies to).
    let template: String
    let hostRefusal: HostRefusal?
    /// Where injected faults apply (`FaultSite.name` nil: none).
    let faultSite: FaultSite?
    let handle: Handler

    init(template: String, hostRefusal: HostRefusal?, faultSite: FaultSite?, handle: @escaping Handler) {
        self.template = template
        self.hostRefusal = template.contains("{tenant}") ? hostRefusal : nil
        self.faultSite = faultSite?.name == nil ? nil : faultSite
        self.handle = handle
    }

    /// Runs the middleware, then the handler: the host refusal first (a tenant of another cloud is not found
    /// there, whatever fault waits), then an injected fault, then the endpoint.
    func respond(_ request: HTTPRequest, _ parameters: RouteParameters, _ context: RequestContext,
                 _ handlers: EndpointHandlers) -> HTTPResponse {
        if let hostRefusal, context.hostScope != .neutral,
           let refusal = handlers.provider.hostRefusal(tenantSegment: parameters["tenant"] ?? "", context: context,
                                                       forDiscovery: hostRefusal.isDiscovery) {
            return hostRefusal.isPage ? handlers.errorPage(refusal, context: context) : handlers.oauthError(refusal, context: context)
        }
        if let faultSite {
            return handlers.applyingFaults(faultSite, request, parameters, context) { handle(request, parameters, context) }
        }
        return handle(request, parameters, context)
    }
}

extension Route.HostRefusal {
    var isDiscovery: Bool { if case .json(let discovery) = self { discovery } else { false } }
    var isPage: Bool { if case .page = self { true } else { false } }
}
