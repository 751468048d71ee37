import Logging
import MockIDPCore
import MockIDPHTTP
import MockIDPJOSE

/// The HTTP face of the provider: a route for each row of `EndpointTable`, each mapping a request to an
/// `IdentityProvider` call and its result to a response. Every request is logged once, without secrets.
struct Routes: Sendable {
    let handlers: EndpointHandlers
    private let router: Router

    init(provider: IdentityProvider, options: ServerOptions, logger: Logger) {
        handlers = EndpointHandlers(provider: provider, options: options, logger: logger)
        router = Self.makeRouter(handlers)
    }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        let logger = handlers.logger
        let start = ContinuousClock.now
        var response = router.respond(to: request)
        let elapsed = ContinuousClock.now - start
        let ms = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
        // Only method, path (never the query: it may hold codes or hints), status and time.
        logger.info("\(request.method) \(request.path) \(response.status.rawValue) \(String(format3(ms)))ms")
        let status = response.status.rawValue
        if status >= 400, response.rejectionReason == nil {
            response.rejectionReason = status == 405 ? "\(request.path) does not accept \(request.method) (allowed: \(response.headers["Allow"] ?? "none"))"
                : "the server answered \(status)"
        }
        // Successful control calls and health checks stay out of the log, so it shows the requests under test.
        let isControl = request.path.lowercased().hasPrefix(ControlCall.prefix)
        if !isControl || response.rejectionReason != nil {
            handlers.requestLog.record(RequestLog.Entry(method: request.method, path: request.path, status: status,
                                                        reason: response.rejectionReason))
        }
        return response
    }

    private static func makeRouter(_ h: EndpointHandlers) -> Router {
        var router = Router(notFound: { request in
            var r = EndpointHandlers.jsonError(status: .notFound, error: "not_found", description: "No endpoint at \(request.method) \(request.path).")
            r.rejectionReason = "no endpoint at \(request.path)"
            return r
        })
        let provider = h.provider
        EndpointHandlers.addControlRoutes(to: &router, h)
        for (endpoint, template) in EndpointTable.paths {
            func add(methods: Set<String>? = nil, _ handler: @escaping Router.Handler) {
                router.add(template, methods: methods, h.guardingHost(template: template,
                                                                      discovery: [.v2Discovery, .v1Discovery, .v2Keys, .v1Keys].contains(endpoint),
                                                                      browser: [.v2Authorize, .v1Authorize, .v2Logout, .v1Logout].contains(endpoint),
                                                                      h.applyingFaults(FaultSite(endpoint), handler)))
            }
            switch endpoint {
            case .v2Discovery, .v1Discovery, .v2Keys, .v1Keys:
                let version: ProtocolVersion = endpoint == .v2Discovery || endpoint == .v2Keys ? .v2 : .v1
                let isKeySet = endpoint == .v2Keys || endpoint == .v1Keys
                add(methods: ["GET", "HEAD"]) { request, params in
                    let context = h.context(request)
                    let tenant = params["tenant"] ?? ""
                    if let b2c = h.b2cDocument(isKeySet ? .keys : .discovery, request, tenant: tenant,
                                                               policy: request.queryValue("p"), form: .query) {
                        return b2c
                    }
                    return h.cachedDocument("\(endpoint.rawValue) \(context.baseURL) \(tenant.lowercased())", context: context) {
                        isKeySet ? provider.keySet(tenant: tenant, version: version, context: context)
                            : provider.openIDConfiguration(tenant: tenant, version: version, context: context)
                    }
                }
            case .v2Token, .v1Token:
                let version: ProtocolVersion = endpoint == .v2Token ? .v2 : .v1
                add { request, params in
                    h.token(request, tenant: params["tenant"] ?? "", version: version, policy: request.queryValue("p"), policyForm: .query)
                }
            case .userInfo, .v1UserInfo:
                add(methods: ["GET", "POST"]) { request, _ in h.userInfo(request) }
            case .instanceDiscovery:
                add(methods: ["GET", "HEAD"]) { request, _ in
                    let context = h.context(request)
                    let served = h.servedHosts(context)
                    return h.json(provider.instanceDiscovery(authorizationEndpoint: request.queryValue("authorization_endpoint"),
                                                                servedHosts: served, context: context), context: context)
                }
            case .userRealm:
                add(methods: ["GET", "HEAD"]) { request, params in
                    let context = h.context(request)
                    return HTTPResponse.json(provider.userRealm(username: params["username"] ?? "", context: context).serialized())
                }
            case .health:
                add(methods: ["GET", "HEAD"]) { _, _ in HTTPResponse.json(Array(#"{"status":"ok"}"#.utf8)) }
            case .v2Authorize, .v1Authorize:
                let version: ProtocolVersion = endpoint == .v2Authorize ? .v2 : .v1
                add(methods: ["GET", "POST"]) { request, params in
                    h.authorize(request, tenant: params["tenant"] ?? "", version: version, policy: nil, policyForm: .query)
                }
            case .v2Logout, .v1Logout:
                add(methods: ["GET", "POST"]) { request, params in
                    h.b2cLogout(request, tenant: params["tenant"] ?? "", policy: nil, form: .query) ?? h.logout(request, tenant: params["tenant"] ?? "")
                }
            case .v2DeviceCode, .v1DeviceCode:
                let version: ProtocolVersion = endpoint == .v2DeviceCode ? .v2 : .v1
                add { request, params in h.deviceCode(request, tenant: params["tenant"] ?? "", version: version) }
            case .deviceLogin:
                add(methods: ["GET", "POST"]) { request, _ in h.deviceLogin(request) }
            }
        }
        addB2CRoutes(to: &router, h)
        return router
    }

    /// The B2C dialect's routes: each row of `B2CEndpointTable` (the `?p=` form rides on the routes above).
    private static func addB2CRoutes(to router: inout Router, _ h: EndpointHandlers) {
        for (endpoint, template) in B2CEndpointTable.paths {
            let methods: Set<String>? = endpoint == .token ? nil : (endpoint == .discovery || endpoint == .keys ? ["GET", "HEAD"] : ["GET", "POST"])
            let handler: Router.Handler = { request, params in
                let tenant = params["tenant"] ?? "", policy = params["policy"] ?? ""
                switch endpoint {
                case .discovery, .keys:
                    return h.b2cDocument(endpoint, request, tenant: tenant, policy: policy, form: .path)
                        ?? EndpointHandlers.jsonError(status: .notFound, error: "not_found", description: "No endpoint at \(request.path).")
                case .authorize: return h.authorize(request, tenant: tenant, version: .v2, policy: policy, policyForm: .path)
                case .token: return h.token(request, tenant: tenant, version: .v2, policy: policy, policyForm: .path)
                case .logout: return h.b2cLogout(request, tenant: tenant, policy: policy, form: .path) ?? h.logout(request, tenant: tenant)
                }
            }
            router.add(template, methods: methods, h.guardingHost(template: template, discovery: endpoint == .discovery || endpoint == .keys,
                                                                  browser: endpoint == .authorize || endpoint == .logout,
                                                                  h.applyingFaults(FaultSite(endpoint), handler)))
        }
    }
}

/// What each route does: the mapping between HTTP and the provider.
struct EndpointHandlers: Sendable {
    let provider: IdentityProvider
    let options: ServerOptions
    let logger: Logger
    let documents = DocumentCache()
    /// The recent requests, for `GET /_mockidp/requests`.
    let requestLog = RequestLog()
    let pages: Pages = {
        do { return try Pages() } catch { preconditionFailure("the compiled-in templates parse: \(error)") }
    }()

    /// A discovery document or key set, from the cache when the provider has not changed since it was built.
    /// Errors are not cached (their trace IDs and timestamps are per request).
    func cachedDocument(_ key: String, context: RequestContext, build: () -> Result<JSONValue, OAuthError>) -> HTTPResponse {
        var failure: OAuthError?
        let body = documents.body(key, generation: provider.snapshot().generation) {
            switch build() {
            case .success(let document): return document.serialized()
            case .failure(let error): failure = error; return nil
            }
        }
        guard let body else {
            guard let failure else { preconditionFailure("the cache returns nil only when building failed") }
            return oauthError(failure, context: context)
        }
        var r = HTTPResponse.json(body)
        r.headers["Cache-Control"] = "max-age=86400, private"
        r.headers["Access-Control-Allow-Origin"] = "*"
        r.headers["Access-Control-Allow-Methods"] = "GET, OPTIONS"
        return r
    }

    // MARK: token

    func token(_ request: HTTPRequest, tenant: String, version: ProtocolVersion, policy: String? = nil,
               policyForm: B2CPolicyForm = .path) -> HTTPResponse {
        let context = self.context(request)
        if request.method == "OPTIONS" {
            return HTTPResponse(status: .noContent, headers: ["Allow": "POST, OPTIONS", "Access-Control-Allow-Origin": "*",
                                                              "Access-Control-Allow-Methods": "POST, OPTIONS"])
        }
        guard request.method == "POST" else {
            return oauthError(.tokenEndpointRequiresPOST(method: request.method), context: context)
        }
        let contentType = request.headers["Content-Type"]?.lowercased() ?? ""
        guard contentType.hasPrefix("application/x-www-form-urlencoded") else {
            return oauthError(.malformedRequest("the body must be application/x-www-form-urlencoded"), context: context)
        }
        let parameters: [(name: String, value: String)]
        do { parameters = try URLEncodedForm.decode(request.body) } catch {
            return oauthError(.malformedRequest(error.description), context: context)
        }
        let tokenRequest = TokenRequest(tenant: tenant, version: version, parameters: parameters,
                                        basicCredentials: Self.basicCredentials(request.headers["Authorization"]),
                                        policy: policy, policyForm: policyForm)
        switch provider.token(tokenRequest, context: context) {
        case .success(let response):
            var r = HTTPResponse.json(response.body.serialized())
            r.headers["Cache-Control"] = "no-store, no-cache"
            r.headers["Pragma"] = "no-cache"
            return r
        case .failure(let error):
            return oauthError(error, context: context)
        }
    }

    /// The token of `Authorization: Bearer <token>` (RFC 6750 §2.1), or nil when the request has none.
    static func bearerToken(_ request: HTTPRequest) -> String? {
        guard let header = request.headers["Authorization"], header.lowercased().hasPrefix("bearer ") else { return nil }
        return header.dropFirst(7).trimmingSpaces()
    }

    /// `Authorization: Basic base64(urlencode(id):urlencode(secret))` (RFC 6749 §2.3.1).
    static func basicCredentials(_ header: String?) -> (clientID: String, secret: String)? {
        guard let header, header.lowercased().hasPrefix("basic ") else { return nil }
        guard let bytes = Base64URL.decode(header.dropFirst(6).trimmingSpaces()),
              let text = String(validating: bytes, as: UTF8.self), let colon = text.firstIndex(of: ":") else { return nil }
        guard let id = try? URLEncodedForm.percentDecode(text[..<colon]),
              let secret = try? URLEncodedForm.percentDecode(text[text.index(after: colon)...]) else { return nil }
        return (id, secret)
    }

    // MARK: userinfo

    func userInfo(_ request: HTTPRequest) -> HTTPResponse {
        let context = self.context(request)
        switch provider.userInfo(bearerToken: Self.bearerToken(request)) {
        case .success(let info): return HTTPResponse.json(info.serialized())
        case .failure(let error):
            var r = oauthError(error, context: context)
            r.headers["WWW-Authenticate"] = "Bearer error=\"invalid_token\", error_description=\"\(error.message)\""
            return r
        }
    }

    // MARK: mapping

    /// The base URL the client used: `--public-url`, else the listener's scheme with the request's `Host`.
    func context(_ request: HTTPRequest) -> RequestContext {
        let correlation = request.headers["client-request-id"].flatMap { GUID.isValid($0) ? $0.lowercased() : nil }
        if let publicURL = options.publicURL {
            return RequestContext(baseURL: publicURL, host: HostHeader.hostName(of: publicURL), correlationID: correlation)
        }
        let scheme = request.isSecure ? "https" : "http"
        let host = request.headers["Host"].flatMap(HostHeader.validated) ?? HostHeader.listenerAuthority(options.host, port: request.localPort)
        return RequestContext(baseURL: "\(scheme)://\(host)", host: HostHeader.hostName(of: host), correlationID: correlation)
    }

    /// Host names this server answers for: loopback, the listen address, the request's host, and what the
    /// configuration serves (its `hosts`, its tenants' cloud hosts, its B2C tenants' `*.b2clogin.*` hosts).
    func servedHosts(_ context: RequestContext) -> Set<String> {
        var hosts: Set<String> = ["localhost", "127.0.0.1", "[::1]", context.host, options.host.lowercased()]
        hosts.formUnion(provider.snapshot().configuration.servedHostNames)
        return hosts
    }

    /// Wraps the handler of a `{tenant}` route: when the request's host does not serve the tenant it names (a cloud's
    /// login host and a tenant of another cloud), Entra's AADSTS90002 answers before the endpoint runs: as JSON,
    /// or as the error page on the endpoints a browser visits.
    /// `discovery`: the error is `invalid_tenant` (discovery documents and key sets); `browser`: the error page.
    func guardingHost(template: String, discovery: Bool, browser: Bool, _ handler: @escaping Router.Handler) -> Router.Handler {
        guard template.contains("{tenant}") else { return handler }
        return { request, parameters in
            let context = self.context(request)
            if context.hostScope != .neutral,
               let refusal = provider.hostRefusal(tenantSegment: parameters["tenant"] ?? "", context: context, forDiscovery: discovery) {
                return browser ? errorPage(refusal, context: context) : oauthError(refusal, context: context)
            }
            return handler(request, parameters)
        }
    }

    /// The host of `error_uri`: the cloud's login host the request came to, else the public cloud's.
    func errorHost(_ context: RequestContext) -> String {
        if case .login(let cloud) = context.hostScope { return cloud.issuerHost }
        return Cloud.publicCloud.issuerHost
    }

    func json(_ result: Result<JSONValue, OAuthError>, context: RequestContext) -> HTTPResponse {
        switch result {
        case .success(let document): return HTTPResponse.json(document.serialized())
        case .failure(let error): return oauthError(error, context: context)
        }
    }

    func oauthError(_ error: OAuthError, context: RequestContext) -> HTTPResponse {
        let trace = provider.newGUID()
        let body = error.responseBody(traceID: trace, correlationID: context.correlationID ?? provider.newGUID(),
                                      timestamp: EntraTime.timestamp(provider.clock.now()), errorHost: errorHost(context))
        var r = HTTPResponse.json(body.serialized(), status: HTTPStatus(rawValue: error.status))
        r.headers["Cache-Control"] = "no-store, no-cache"
        r.headers["Pragma"] = "no-cache"
        r.headers["x-ms-request-id"] = trace
        if error.status >= 400 { logger.debug("rejected: \(error.reason)") }
        r.rejectionReason = error.reason
        return r
    }

    static func jsonError(status: HTTPStatus, error: String, description: String) -> HTTPResponse {
        let body: JSONValue = ["error": .string(error), "error_description": .string(description)]
        return HTTPResponse.json(body.serialized(), status: status)
    }
}

private func format3(_ v: Double) -> String {
    let scaled = Int((v * 1000).rounded())
    let frac = scaled % 1000
    return "\(scaled / 1000)." + (frac < 10 ? "00" : frac < 100 ? "0" : "") + "\(frac)"
}
