import MockIDPCore
import MockIDPHTTP

/// One route of the server, as the edge runs it: the middleware that stands in front of its handler, in order,
/// and the handler, which gets the request's scope, built once at the edge.
struct Route: Sendable {
    /// Answers a request whose path matched, with the path's captures and the request's scope; an `OAuthError` it
    /// throws is rendered as the route answers errors (`render`).
    typealias Handler = @Sendable (HTTPRequest, RouteParameters, RequestScope) throws -> HTTPResponse

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

    /// How a route's errors reach the client.
    enum ErrorShape: Sendable {
        /// Entra's JSON error (token, device code, discovery, keys, userinfo, …).
        case json
        /// Entra's error page, where a browser comes (authorize, logout, device login).
        case page
        /// Entra's JSON error with RFC 6750 §3's `WWW-Authenticate: Bearer` challenge (userinfo).
        case bearerChallenge
        /// A managed-identity host's own JSON and headers.
        case managedIdentity(ManagedIdentityHost)
        /// Microsoft Graph's error object and headers.
        case graph
    }

    /// The path template (`{tenant}` routes are the ones the host refusal applies to).
    let template: String
    let hostRefusal: HostRefusal?
    /// How errors are rendered: the error page where the host refusal is a page (where a browser comes), else JSON,
    /// unless the route names its own shape (Graph, managed identity).
    let errors: ErrorShape
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
         dialectErrorStatus: Int = 400, version: ProtocolVersion = .v2, errors: ErrorShape? = nil, controlAccess: Bool = false,
         handle: @escaping Handler) {
        self.template = template
        // A parameter is a whole segment. (`contains` would bind to Foundation's overload in this module, which runs
        // CoreFoundation's string search and faults in its Unicode tables while the server starts.)
        let namesTenant = template.split(separator: "/").contains("{tenant}")
        self.hostRefusal = namesTenant ? hostRefusal : nil
        self.errors = errors ?? (hostRefusal?.isPage == true ? .page : .json)
        self.faultSite = faultSite?.name == nil ? nil : faultSite
        self.policySource = namesTenant ? policySource : nil
        self.dialectErrorStatus = dialectErrorStatus
        self.version = version
        self.controlAccess = controlAccess
        self.handle = handle
    }

    /// Runs `Route.middleware` in order, then the handler; an error thrown by any of them is rendered by the first.
    /// (The request log is the edge's, around all of it: `Routes.respond`.)
    func respond(_ request: HTTPRequest, _ parameters: RouteParameters, _ scope: RequestScope,
                 _ handlers: EndpointHandlers) -> HTTPResponse {
        let routed = RoutedRequest(http: request, parameters: parameters, scope: scope, route: self, handlers: handlers)
        do {
            return try Self.chain(routed)
        } catch {
            // `ErrorRendering` renders every error the steps after it throw, and the steps before it throw none.
            preconditionFailure("no middleware before ErrorRendering throws, and it lets no error through: \(error)")
        }
    }

    /// The steps in front of every handler, in order. Each step acts only where its column of the route asks for it.
    /// Errors are rendered once the dialect is known, so they are worded as the request's dialect words them; the
    /// steps before `ErrorRendering` answer without throwing.
    static let middleware: [any RouteMiddleware] = [
        ControlAccess(), DialectResolution(), ErrorRendering(), HostRefusalCheck(), FaultInjection(),
    ]

    /// `middleware` in order around the route's handler, composed once for every route.
    private static let chain: @Sendable (RoutedRequest) throws -> HTTPResponse = {
        var next: @Sendable (RoutedRequest) throws -> HTTPResponse = { r in try r.route.handle(r.http, r.parameters, r.scope) }
        for step in middleware.reversed() {
            let inner = next
            next = { r in try step.respond(r, next: inner) }
        }
        return next
    }()

    /// The policy `request` names, by this route's rule.
    func policy(_ request: HTTPRequest, _ parameters: RouteParameters) -> String? {
        switch policySource {
        case .path?: return parameters["policy"]
        case .query?: return request.queryValue("p")
        case .parameters?:
            guard request.method == "POST" else { return request.queryValue("p") }
            return (try? URLEncodedForm.decode(request.body))?.first { $0.name == "p" }?.value
        case .never?, nil: return nil
        }
    }

    /// `error` as this route answers errors (`errors`).
    func render(_ error: OAuthError, _ request: HTTPRequest, _ scope: RequestScope, _ handlers: EndpointHandlers) -> HTTPResponse {
        switch errors {
        case .json: handlers.oauthError(error, context: scope)
        case .page: handlers.errorPage(error, context: scope)
        case .bearerChallenge: handlers.bearerChallenge(error, context: scope)
        case .managedIdentity(let host): handlers.respond(with: error, .managedIdentity(host), context: scope)
        case .graph: handlers.graphError(error, request, context: scope)
        }
    }
}

extension Route.HostRefusal {
    var isDiscovery: Bool { if case .json(let discovery) = self { discovery } else { false } }
    var isPage: Bool { if case .page = self { true } else { false } }
}
