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
        // Every endpoint's handler runs behind the faults registered for it.
        func add(_ endpoint: Endpoint, _ template: String, methods: Set<String>? = nil, _ handler: @escaping Router.Handler) {
            router.add(template, methods: methods) { request, params in h.applyingFaults(endpoint, request, params, handler) }
        }
        for (endpoint, template) in EndpointTable.paths {
            switch endpoint {
            case .v2Discovery, .v1Discovery, .v2Keys, .v1Keys:
                let version: ProtocolVersion = endpoint == .v2Discovery || endpoint == .v2Keys ? .v2 : .v1
                let isKeySet = endpoint == .v2Keys || endpoint == .v1Keys
                add(endpoint, template, methods: ["GET", "HEAD"]) { request, params in
                    let context = h.context(request)
                    let tenant = params["tenant"] ?? ""
                    return h.cachedDocument("\(endpoint.rawValue) \(context.baseURL) \(tenant.lowercased())", context: context) {
                        isKeySet ? provider.keySet(tenant: tenant, version: version, context: context)
                            : provider.openIDConfiguration(tenant: tenant, version: version, context: context)
                    }
                }
            case .v2Token, .v1Token:
                let version: ProtocolVersion = endpoint == .v2Token ? .v2 : .v1
                add(endpoint, template) { request, params in h.token(request, tenant: params["tenant"] ?? "", version: version) }
            case .userInfo:
                add(endpoint, template, methods: ["GET", "POST"]) { request, _ in h.userInfo(request) }
            case .instanceDiscovery:
                add(endpoint, template, methods: ["GET", "HEAD"]) { request, _ in
                    let context = h.context(request)
                    let served = h.servedHosts(context)
                    return h.json(provider.instanceDiscovery(authorizationEndpoint: request.queryValue("authorization_endpoint"),
                                                                servedHosts: served, context: context), context: context)
                }
            case .userRealm:
                add(endpoint, template, methods: ["GET", "HEAD"]) { request, params in
                    let context = h.context(request)
                    return HTTPResponse.json(provider.userRealm(username: params["username"] ?? "", context: context).serialized())
                }
            case .health:
                add(endpoint, template, methods: ["GET", "HEAD"]) { _, _ in HTTPResponse.json(Array(#"{"status":"ok"}"#.utf8)) }
            case .v2Authorize, .v1Authorize:
                let version: ProtocolVersion = endpoint == .v2Authorize ? .v2 : .v1
                add(endpoint, template, methods: ["GET", "POST"]) { request, params in h.authorize(request, tenant: params["tenant"] ?? "", version: version) }
            case .v2Logout, .v1Logout:
                add(endpoint, template, methods: ["GET", "POST"]) { request, params in h.logout(request, tenant: params["tenant"] ?? "") }
            case .v2DeviceCode, .v1DeviceCode:
                add(endpoint, template) { request, params in h.deviceCode(request, tenant: params["tenant"] ?? "") }
            case .deviceLogin:
                add(endpoint, template, methods: ["GET", "POST"]) { request, _ in h.deviceLogin(request) }
            }
        }
        return router
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
        let body = documents.body(key, generation: provider.generation) {
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

    func token(_ request: HTTPRequest, tenant: String, version: ProtocolVersion) -> HTTPResponse {
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
                                        basicCredentials: Self.basicCredentials(request.headers["Authorization"]))
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
        var bearer: String?
        if let auth = request.headers["Authorization"], auth.lowercased().hasPrefix("bearer ") {
            bearer = String(auth.dropFirst(7)).trimmingSpaces()
        }
        switch provider.userInfo(bearerToken: bearer) {
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

    /// Host names this server answers for: loopback, the listen address, the request's host, configured hosts.
    func servedHosts(_ context: RequestContext) -> Set<String> {
        var hosts: Set<String> = ["localhost", "127.0.0.1", "[::1]", context.host, options.host.lowercased()]
        for h in provider.configuration.hosts { hosts.insert(h.lowercased()) }
        return hosts
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
                                      timestamp: EntraTime.timestamp(provider.clock.now()))
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

extension StringProtocol {
    func trimmingSpaces() -> String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}
