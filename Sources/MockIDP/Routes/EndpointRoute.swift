import MockIDPCore
import MockIDPHTTP

/// One row of the server's route list: the path (from `EndpointTable` or `B2CEndpointTable`), the methods it takes,
/// how a tenant its host does not serve is refused, where the request names a B2C policy, whether it is a metadata
/// document (B2C answers those 404 for an unknown policy), the protocol version, how its errors look, and what
/// answers it. `Routes` registers the rows in order, and `Route` runs the middleware the columns ask for.
struct EndpointRoute: Sendable {
    typealias Handle = @Sendable (EndpointHandlers, HTTPRequest, RouteParameters, RequestScope) throws -> HTTPResponse

    let template: String
    let faultSite: FaultSite
    let methods: Set<String>?
    let refusal: Route.HostRefusal
    let policy: Route.PolicySource?
    let isDocument: Bool
    let version: ProtocolVersion
    let errors: Route.ErrorShape?
    let handle: Handle

    /// Entra's row for `endpoint`, at its `EndpointTable` path.
    static func entra(_ endpoint: Endpoint, _ methods: Set<String>?, refusal: Route.HostRefusal = .json(discovery: false),
                      policy: Route.PolicySource? = nil, document: Bool = false, version: ProtocolVersion = .v2,
                      errors: Route.ErrorShape? = nil, _ handle: @escaping Handle) -> EndpointRoute {
        EndpointRoute(template: EndpointTable.template(endpoint), faultSite: FaultSite(endpoint), methods: methods, refusal: refusal,
                      policy: policy, isDocument: document, version: version, errors: errors, handle: handle)
    }

    static let discovery: Set<String> = ["GET", "HEAD"]
    static let browser: Set<String> = ["GET", "POST"]

    /// Entra's endpoints, in `EndpointTable`'s order.
    static let entra: [EndpointRoute] = [
        .entra(.v2Discovery, discovery, refusal: .json(discovery: true), policy: .query, document: true) { h, r, p, c in
            try h.document(.v2Discovery, r, tenant: p["tenant"] ?? "", version: .v2, context: c)
        },
        .entra(.v1Discovery, discovery, refusal: .json(discovery: true), policy: .query, document: true, version: .v1) { h, r, p, c in
            try h.document(.v1Discovery, r, tenant: p["tenant"] ?? "", version: .v1, context: c)
        },
        .entra(.v2Keys, discovery, refusal: .json(discovery: true), policy: .query, document: true) { h, r, p, c in
            try h.document(.v2Keys, r, tenant: p["tenant"] ?? "", version: .v2, context: c)
        },
        .entra(.v1Keys, discovery, refusal: .json(discovery: true), policy: .query, document: true, version: .v1) { h, r, p, c in
            try h.document(.v1Keys, r, tenant: p["tenant"] ?? "", version: .v1, context: c)
        },
        .entra(.v2Authorize, browser, refusal: .page, policy: .parameters) { h, r, p, c in
            try h.authorize(r, tenant: p["tenant"] ?? "", version: .v2, context: c)
        },
        .entra(.v1Authorize, browser, refusal: .page, policy: .never, version: .v1) { h, r, p, c in
            try h.authorize(r, tenant: p["tenant"] ?? "", version: .v1, context: c)
        },
        .entra(.v2Token, nil, policy: .query) { h, r, p, c in try h.token(r, tenant: p["tenant"] ?? "", version: .v2, context: c) },
        .entra(.v1Token, nil, policy: .query, version: .v1) { h, r, p, c in
            try h.token(r, tenant: p["tenant"] ?? "", version: .v1, context: c)
        },
        .entra(.v2DeviceCode, nil, policy: .never) { h, r, p, c in
            try h.deviceCode(r, tenant: p["tenant"] ?? "", version: .v2, context: c)
        },
        .entra(.v1DeviceCode, nil, policy: .never, version: .v1) { h, r, p, c in
            try h.deviceCode(r, tenant: p["tenant"] ?? "", version: .v1, context: c)
        },
        .entra(.v2Logout, browser, refusal: .page, policy: .query) { h, r, p, c in h.logout(r, tenant: p["tenant"] ?? "", context: c) },
        .entra(.v1Logout, browser, refusal: .page, policy: .query, version: .v1) { h, r, p, c in
            h.logout(r, tenant: p["tenant"] ?? "", context: c)
        },
        .entra(.userInfo, browser, errors: .bearerChallenge) { h, r, _, c in try h.userInfo(r, context: c) },
        .entra(.v1UserInfo, browser, version: .v1, errors: .bearerChallenge) { h, r, _, c in try h.userInfo(r, context: c) },
        .entra(.v1CheckSession, discovery) { _, _, _, _ in EndpointHandlers.checkSessionFrame() },
        .entra(.kerberos, nil) { _, r, _, _ in EndpointHandlers.kerberos(r) },
        .entra(.instanceDiscovery, discovery) { h, r, _, c in
            try h.json(h.provider.discovery.instanceDiscovery(authorizationEndpoint: r.queryValue("authorization_endpoint"),
                                                              servedHosts: h.servedHosts(c), context: c))
        },
        .entra(.userRealm, discovery) { h, _, p, c in
            HTTPResponse.json(h.provider.discovery.userRealm(username: p["username"] ?? "", context: c).serialized())
        },
        .entra(.deviceLogin, browser, refusal: .page) { h, r, _, c in try h.deviceLogin(r, context: c) },
        .entra(.federationMetadata, discovery, refusal: .json(discovery: true), policy: .never, document: true, version: .v1) { h, r, p, c in
            try h.federationMetadata(r, tenant: p["tenant"] ?? "", context: c)
        },
        .entra(.saml2, browser, refusal: .page, policy: .never, version: .v1) { h, r, p, c in
            try h.saml2(r, tenant: p["tenant"] ?? "", context: c)
        },
        .entra(.wsfed, browser, refusal: .page, policy: .never, version: .v1) { h, r, p, c in
            try h.wsFederation(r, tenant: p["tenant"] ?? "", context: c)
        },
        .entra(.health, discovery) { _, _, _, _ in HTTPResponse.json(Array(#"{"status":"ok"}"#.utf8)) },
    ] + NativeAuthCall.allCases.map { call in
        // External ID's native authentication API: JSON errors, a tenant its host does not serve refused as the
        // token endpoint refuses it.
        .entra(call.endpoint, nil, policy: .never) { h, r, p, c in try h.nativeAuth(call, r, tenant: p["tenant"] ?? "", context: c) }
    }

    /// A B2C user flow's endpoints, at each of `B2CEndpointTable`'s authority forms (the `?p=` form rides on
    /// Entra's rows).
    static let b2c: [EndpointRoute] = B2CEndpointTable.paths.map { endpoint, template in
        let isDocument = endpoint == .discovery || endpoint == .keys
        let methods: Set<String>? = isDocument ? discovery : endpoint == .token ? nil : browser
        let refusal: Route.HostRefusal = isDocument ? .json(discovery: true) : endpoint == .token ? .json(discovery: false) : .page
        return EndpointRoute(template: template, faultSite: FaultSite(endpoint), methods: methods, refusal: refusal, policy: .path,
                             isDocument: isDocument, version: .v2, errors: nil) { h, r, p, c in
            let tenant = p["tenant"] ?? ""
            switch endpoint {
            case .discovery, .keys:
                return try h.b2cDocument(endpoint, r, tenant: tenant, form: .path, context: c)
                    ?? EndpointHandlers.jsonError(status: .notFound, error: .notFound, description: "No endpoint at \(r.path).")
            case .authorize: return try h.authorize(r, tenant: tenant, version: .v2, context: c)
            case .token: return try h.token(r, tenant: tenant, version: .v2, context: c)
            case .logout: return h.logout(r, tenant: tenant, context: c)
            }
        }
    }

    /// Registers this row in `table`, its handler bound to `h`.
    func add(to table: inout RouteTable<Route>, _ h: EndpointHandlers) {
        let handle = self.handle
        table.add(template, methods: methods, Route(template: template, hostRefusal: refusal, faultSite: faultSite, policySource: policy,
                                                    dialectErrorStatus: isDocument ? 404 : 400, version: version, errors: errors) { r, p, c in
            try handle(h, r, p, c)
        })
    }
}
