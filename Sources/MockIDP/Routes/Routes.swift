import Logging
import MockIDPCore
import MockIDPHTTP
import MockIDPJOSE

/// The HTTP face of the provider: a route for each row of `EndpointTable`, `B2CEndpointTable` and
/// `ControlCall.paths`, each mapping a request to an `IdentityProvider` call and its result to a response.
///
/// The edge works in this order for every request: match the route; resolve the request's context once (scheme,
/// host, base URL, cloud); then the route's middleware (the control API's access rule, the dialect, host refusal,
/// injected faults); then the handler.
/// Every request is logged once, without secrets, and recorded for `/_mockidp/requests`.
struct Routes: Sendable {
    let handlers: EndpointHandlers
    private let table: RouteTable<Route>

    init(provider: IdentityProvider, options: ServerOptions, logger: Logger) {
        handlers = EndpointHandlers(provider: provider, options: options, logger: logger)
        table = Self.makeTable(handlers)
    }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        let start = ContinuousClock.now
        var response: HTTPResponse
        switch table.match(method: request.method, path: request.path) {
        case .found(let route, let parameters):
            // The edge: the request's scope and its one directory snapshot, taken once.
            response = route.respond(request, parameters, handlers.scope(request), handlers)
        case .methodNotAllowed(let allowed):
            response = Router.methodNotAllowed(allowed)
        case .notFound:
            response = EndpointHandlers.jsonError(status: .notFound, error: .notFound, description: "No endpoint at \(request.method) \(request.path).")
            response.rejectionReason = "no endpoint at \(request.path)"
        }
        record(request, &response, elapsed: ContinuousClock.now - start)
        return response
    }

    /// Logs the request (method, path, never the query: it may hold codes or hints; status and time) and records it
    /// for `/_mockidp/requests`, with the reason of a rejection.
    private func record(_ request: HTTPRequest, _ response: inout HTTPResponse, elapsed: Duration) {
        let logger = handlers.logger
        let status = response.status.rawValue
        if logger.logLevel <= .info {
            let ms = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
            logger.info(Logger.Message(stringLiteral: Self.logLine(request.method, request.path, status, milliseconds: ms)))
        }
        if status >= 400, response.rejectionReason == nil {
            response.rejectionReason = status == 405 ? "\(request.path) does not accept \(request.method) (allowed: \(response.headers["Allow"] ?? "none"))"
                : "the server answered \(status)"
        }
        // Successful control calls and health checks stay out of the log, so it shows the requests under test.
        let isControl = Self.isControlPath(request.path)
        if !isControl || response.rejectionReason != nil {
            handlers.requestLog.record(RequestLog.Entry(method: request.method, path: request.path, status: status,
                                                        reason: response.rejectionReason))
        }
    }

    /// The request log's message, `GET /path 200 0.120ms`, written straight into one string's storage.
    static func logLine(_ method: String, _ path: String, _ status: Int, milliseconds: Double) -> String {
        let scaled = Int((milliseconds * 1000).rounded())
        return String(unsafeUninitializedCapacity: method.utf8.count + path.utf8.count + 64) { buffer in
            var o = 0
            func put(_ text: String) {
                // Native strings lend their bytes; only others are walked.
                let copied: Int? = text.utf8.withContiguousStorageIfAvailable { bytes in
                    UnsafeMutableBufferPointer(rebasing: buffer[o...]).initialize(fromContentsOf: bytes)
                }
                if let copied { o += copied; return }
                for byte in text.utf8 { buffer[o] = byte; o += 1 }
            }
            func put(_ byte: UInt8) { buffer[o] = byte; o += 1 }
            // Statuses and elapsed times are never negative.
            func put(_ value: Int, width: Int = 1) {
                var digits = 1
                var rest = value.magnitude / 10
                while rest > 0 { digits += 1; rest /= 10 }
                var v = value.magnitude
                let end = o + max(digits, width)
                for i in stride(from: end - 1, through: o, by: -1) {
                    buffer[i] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: v % 10)
                    v /= 10
                }
                o = end
            }
            put(method)
            put(UInt8(ascii: " "))
            put(path)
            put(UInt8(ascii: " "))
            put(status)
            put(UInt8(ascii: " "))
            put(scaled / 1000)
            put(UInt8(ascii: "."))
            put(scaled % 1000, width: 3)
            put(UInt8(ascii: "m"))
            put(UInt8(ascii: "s"))
            return o
        }
    }

    /// Whether `path` starts with the control API's prefix, without regard to ASCII case.
    private static func isControlPath(_ path: String) -> Bool {
        var characters = path.utf8.makeIterator()
        for expected in ControlCall.prefix.utf8 {
            guard let c = characters.next() else { return false }
            let lower = c >= 0x41 && c <= 0x5A ? c | 0x20 : c
            guard lower == expected else { return false }
        }
        return true
    }

    private static func makeTable(_ h: EndpointHandlers) -> RouteTable<Route> {
        var table = RouteTable<Route>()
        let provider = h.provider
        EndpointHandlers.addControlRoutes(to: &table, h)
        for (endpoint, template) in EndpointTable.paths {
            func add(methods: Set<String>? = nil, errors: Route.ErrorShape? = nil, _ handle: @escaping Route.Handler) {
                let refusal: Route.HostRefusal? = switch endpoint {
                case .v2Discovery, .v1Discovery, .v2Keys, .v1Keys: .json(discovery: true)
                case .v2Authorize, .v1Authorize, .v2Logout, .v1Logout, .deviceLogin: .page
                default: .json(discovery: false)
                }
                let policySource: Route.PolicySource? = switch endpoint {
                case .v2Discovery, .v1Discovery, .v2Keys, .v1Keys, .v2Token, .v1Token, .v2Logout, .v1Logout: .query
                case .v2Authorize: .parameters
                case .v1Authorize, .v2DeviceCode, .v1DeviceCode: .never
                default: nil
                }
                let isDocument = [.v2Discovery, .v1Discovery, .v2Keys, .v1Keys].contains(endpoint)
                let version: ProtocolVersion = [.v1Discovery, .v1Keys, .v1Token, .v1Authorize, .v1Logout, .v1DeviceCode, .v1UserInfo]
                    .contains(endpoint) ? .v1 : .v2
                table.add(template, methods: methods, Route(template: template, hostRefusal: refusal, faultSite: FaultSite(endpoint),
                                                            policySource: policySource, dialectErrorStatus: isDocument ? 404 : 400,
                                                            version: version, errors: errors, handle: handle))
            }
            switch endpoint {
            case .v2Discovery, .v1Discovery, .v2Keys, .v1Keys:
                let version: ProtocolVersion = endpoint == .v2Discovery || endpoint == .v2Keys ? .v2 : .v1
                let isKeySet = endpoint == .v2Keys || endpoint == .v1Keys
                add(methods: ["GET", "HEAD"]) { request, params, context in
                    let tenant = params["tenant"] ?? ""
                    if let b2c = try h.b2cDocument(isKeySet ? .keys : .discovery, request, tenant: tenant, form: .query, context: context) {
                        return b2c
                    }
                    // `?appid=` goes into the document's jwks_uri (Entra's form for apps with their own keys).
                    let appID = isKeySet ? nil : request.queryValue("appid").flatMap { $0.isEmpty ? nil : $0 }
                    let key = "\(endpoint.rawValue) \(context.baseURL) \(tenant.lowercased())" + (appID.map { " appid=\($0)" } ?? "")
                    return try h.cachedDocument(key, context: context) {
                        isKeySet ? provider.discovery.keySet(tenant: tenant, version: version, context: context)
                            : provider.discovery.openIDConfiguration(tenant: tenant, version: version, context: context, appID: appID)
                    }
                }
            case .v2Token, .v1Token:
                let version: ProtocolVersion = endpoint == .v2Token ? .v2 : .v1
                add { request, params, context in
                    try h.token(request, tenant: params["tenant"] ?? "", version: version, context: context)
                }
            case .userInfo, .v1UserInfo:
                add(methods: ["GET", "POST"], errors: .bearerChallenge) { request, _, context in try h.userInfo(request, context: context) }
            case .instanceDiscovery:
                add(methods: ["GET", "HEAD"]) { request, _, context in
                    let served = h.servedHosts(context)
                    return try h.json(provider.discovery.instanceDiscovery(authorizationEndpoint: request.queryValue("authorization_endpoint"),
                                                             servedHosts: served, context: context))
                }
            case .userRealm:
                add(methods: ["GET", "HEAD"]) { _, params, context in
                    HTTPResponse.json(provider.discovery.userRealm(username: params["username"] ?? "", context: context).serialized())
                }
            case .health:
                add(methods: ["GET", "HEAD"]) { _, _, _ in HTTPResponse.json(Array(#"{"status":"ok"}"#.utf8)) }
            case .v2Authorize, .v1Authorize:
                let version: ProtocolVersion = endpoint == .v2Authorize ? .v2 : .v1
                add(methods: ["GET", "POST"]) { request, params, context in
                    try h.authorize(request, tenant: params["tenant"] ?? "", version: version, context: context)
                }
            case .v2Logout, .v1Logout:
                add(methods: ["GET", "POST"]) { request, params, context in
                    h.logout(request, tenant: params["tenant"] ?? "", context: context)
                }
            case .v2DeviceCode, .v1DeviceCode:
                let version: ProtocolVersion = endpoint == .v2DeviceCode ? .v2 : .v1
                add { request, params, context in try h.deviceCode(request, tenant: params["tenant"] ?? "", version: version, context: context) }
            case .deviceLogin:
                add(methods: ["GET", "POST"]) { request, _, context in try h.deviceLogin(request, context: context) }
            case .v1CheckSession:
                add(methods: ["GET", "HEAD"]) { _, _, _ in EndpointHandlers.checkSessionFrame() }
            case .kerberos:
                add { request, _, _ in
                    var r = EndpointHandlers.jsonError(status: .notImplemented, error: .notSupported,
                                                       description: "This server does not implement Entra's Kerberos proxy (MS-KKDCP).")
                    r.rejectionReason = "the Kerberos endpoint is not implemented (\(request.method) \(request.path))"
                    return r
                }
            }
        }
        addB2CRoutes(to: &table, h)
        ManagedIdentityRoutes.add(to: &table, h)
        EndpointHandlers.addGraphRoutes(to: &table, h)
        return table
    }

    /// The B2C dialect's routes: each row of `B2CEndpointTable` (the `?p=` form rides on the routes above).
    private static func addB2CRoutes(to table: inout RouteTable<Route>, _ h: EndpointHandlers) {
        for (endpoint, template) in B2CEndpointTable.paths {
            let methods: Set<String>? = endpoint == .token ? nil : (endpoint == .discovery || endpoint == .keys ? ["GET", "HEAD"] : ["GET", "POST"])
            let handle: Route.Handler = { request, params, context in
                let tenant = params["tenant"] ?? ""
                switch endpoint {
                case .discovery, .keys:
                    return try h.b2cDocument(endpoint, request, tenant: tenant, form: .path, context: context)
                        ?? EndpointHandlers.jsonError(status: .notFound, error: .notFound, description: "No endpoint at \(request.path).")
                case .authorize: return try h.authorize(request, tenant: tenant, version: .v2, context: context)
                case .token: return try h.token(request, tenant: tenant, version: .v2, context: context)
                case .logout:
                    return h.logout(request, tenant: tenant, context: context)
                }
            }
            let refusal: Route.HostRefusal = endpoint == .discovery || endpoint == .keys ? .json(discovery: true)
                : endpoint == .authorize || endpoint == .logout ? .page : .json(discovery: false)
            let isDocument = endpoint == .discovery || endpoint == .keys
            table.add(template, methods: methods, Route(template: template, hostRefusal: refusal, faultSite: FaultSite(endpoint),
                                                        policySource: .path, dialectErrorStatus: isDocument ? 404 : 400,
                                                        handle: handle))
        }
    }
}

/// What each route does: the mapping between HTTP and the provider.
struct EndpointHandlers: Sendable {
    let provider: IdentityProvider
    let options: ServerOptions
    let logger: Logger
    let documents = DocumentCache()
    /// What the scheme and `Host` of recent requests made of their context.
    let hostContexts = HostContexts()
    /// The recent requests, for `GET /_mockidp/requests`.
    let requestLog = RequestLog()
    /// The pages, parsed on first use: discovery and tokens never wait for them at start-up.
    var pages: Pages { Pages.shared }

    /// A discovery document or key set, from the cache when the provider has not changed since it was built.
    /// Errors are not cached (their trace IDs and timestamps are per request).
    func cachedDocument(_ key: String, context: RequestScope, build: () -> Result<JSONValue, OAuthError>) throws(OAuthError) -> HTTPResponse {
        var failure: OAuthError?
        let body = documents.body(key, generation: context.directory.generation) {
            switch build() {
            case .success(let document): return document.serialized()
            case .failure(let error): failure = error; return nil
            }
        }
        guard let body else {
            guard let failure else { preconditionFailure("the cache returns nil only when building failed") }
            throw failure
        }
        var r = HTTPResponse.json(body)
        r.headers["Cache-Control"] = "max-age=86400, private"
        r.headers["Access-Control-Allow-Origin"] = "*"
        r.headers["Access-Control-Allow-Methods"] = "GET, OPTIONS"
        return r
    }

    // MARK: token

    /// The token endpoint over HTTP; the dialect (Entra or a B2C user flow) comes resolved in `context`.
    func token(_ request: HTTPRequest, tenant: String, version: ProtocolVersion, context: RequestScope) throws(OAuthError) -> HTTPResponse {
        if request.method == "OPTIONS" {
            return HTTPResponse(status: .noContent, headers: ["Allow": "POST, OPTIONS", "Access-Control-Allow-Origin": "*",
                                                              "Access-Control-Allow-Methods": "POST, OPTIONS"])
        }
        guard request.method == "POST" else {
            throw .tokenEndpointRequiresPOST(method: request.method)
        }
        let contentType = request.headers["Content-Type"]?.lowercasedIfNeeded() ?? ""
        guard contentType.hasPrefix("application/x-www-form-urlencoded") else {
            throw .malformedRequest("the body must be application/x-www-form-urlencoded")
        }
        // A client-credentials request answered before, byte for byte, answers again from its template.
        let key = version == .v2 && request.query.isEmpty
            ? TokenRequestKey(path: request.path, baseURL: context.baseURL, host: context.host,
                              authorization: request.headers["Authorization"], body: request.body) : nil
        if let key, let body = provider.repeatedAppToken(key, context: context) { return .uncachedJSON(body) }
        let parameters: [(name: String, value: String)]
        do { parameters = try URLEncodedForm.decode(request.body) } catch {
            throw .malformedRequest(error.description)
        }
        var tokenRequest = TokenRequest(tenant: tenant, version: version, parameters: parameters,
                                        basicCredentials: Self.basicCredentials(request.headers["Authorization"]))
        tokenRequest.key = key
        return .uncachedJSON(try provider.token(tokenRequest, context: context).get().body.serialized())
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

    /// The user's claims; a token it does not take is thrown, and answered with a bearer challenge.
    func userInfo(_ request: HTTPRequest, context: RequestScope) throws(OAuthError) -> HTTPResponse {
        HTTPResponse.json(try provider.userInfo.answer(bearerToken: Self.bearerToken(request), directory: context.directory).get().serialized())
    }

    // MARK: mapping

    /// The request's scope: where it came (`--public-url`, else the listener's scheme with the request's `Host`),
    /// the directory as it is now, the client's correlation ID and address.
    func scope(_ request: HTTPRequest) -> RequestScope {
        let publicURL = options.publicURL
        // With `--public-url` the header decides nothing, so every request shares one entry.
        let hostHeader = publicURL == nil ? request.headers["Host"] : nil
        let host = hostContexts.host(isSecure: request.isSecure, host: hostHeader, port: request.localPort) {
            if let publicURL { return RequestHost(baseURL: publicURL, host: HostHeader.hostName(of: publicURL)) }
            let scheme = request.isSecure ? "https" : "http"
            let host = hostHeader.flatMap(HostHeader.validated) ?? HostHeader.listenerAuthority(options.host, port: request.localPort)
            return RequestHost(baseURL: "\(scheme)://\(host)", host: HostHeader.hostName(of: host))
        }
        return provider.scope(host, correlationID: request.headers["client-request-id"].flatMap { GUID.isValid($0) ? $0.lowercased() : nil },
                              clientAddress: request.remoteAddress.isEmpty ? nil : request.remoteAddress)
    }

    /// Host names this server answers for: loopback, the listen address, the request's host, and what the
    /// configuration serves (its `hosts`, its tenants' cloud hosts, its B2C tenants' `*.b2clogin.*` hosts).
    func servedHosts(_ context: RequestScope) -> Set<String> {
        var hosts: Set<String> = ["localhost", "127.0.0.1", "[::1]", context.host, options.host.lowercased()]
        hosts.formUnion(provider.snapshot().configuration.servedHostNames)
        return hosts
    }

    /// The host of `error_uri`: the cloud's login host the request came to, else the public cloud's.
    func errorHost(_ context: RequestScope) -> String {
        if case .login(let cloud) = context.hostScope { return cloud.issuerHost }
        return Cloud.publicCloud.issuerHost
    }

    func json(_ result: Result<JSONValue, OAuthError>) throws(OAuthError) -> HTTPResponse {
        HTTPResponse.json(try result.get().serialized())
    }

    /// OpenID Connect Session Management 1.0 §3.2's OP iframe, framed by the client's page. The browser session
    /// cookie is HttpOnly, so no script can read the session's state: the frame answers every check with "error",
    /// on which a client keeps its own session as it is.
    static func checkSessionFrame() -> HTTPResponse {
        let html = """
            <!DOCTYPE html><html><head><meta charset="utf-8"><title>mockidp check session</title></head><body><script>
            window.addEventListener("message", function (e) { if (e.source) { e.source.postMessage("error", e.origin); } }, false);
            </script></body></html>
            """
        var response = HTTPResponse.html(html)
        response.headers["Content-Security-Policy"] = "default-src 'none'; script-src 'unsafe-inline'"
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    static func jsonError(status: HTTPStatus, error: OAuthError.Code, description: String) -> HTTPResponse {
        let body: JSONValue = ["error": .string(error.rawValue), "error_description": .string(description)]
        return HTTPResponse.json(body.serialized(), status: status)
    }
}
