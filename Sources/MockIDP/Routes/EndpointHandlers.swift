import Logging
import MockIDPCore
import MockIDPHTTP
import MockIDPJOSE
import MockIDPText

/// What each route does: the mapping between HTTP and the provider.
/// A class: every route's handler holds it, and a request hands it along many calls, which would copy each of its
/// references every time were it a struct.
final class EndpointHandlers: Sendable {
    let provider: IdentityProvider
    let options: ServerOptions
    let logger: Logger
    let documents = DocumentCache()
    /// What the scheme and `Host` of recent requests made of their context.
    let hostContexts = HostContexts()
    /// The recent requests, for `GET /_mockidp/requests`.
    let requestLog = RequestLog()
    /// The token route's speed shortcut: client-credentials answers kept to answer the same request again.
    let appTokenTemplates = AppTokenTemplates()
    /// The pages, parsed on first use: discovery and tokens never wait for them at start-up.
    var pages: Pages { Pages.shared }

    init(provider: IdentityProvider, options: ServerOptions, logger: Logger) {
        self.provider = provider
        self.options = options
        self.logger = logger
    }

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

    /// A discovery document or key set of `endpoint`: a B2C policy's when the request names one by `?p=`, else
    /// Entra's, from the cache. `?appid=` goes into the document's `jwks_uri` (Entra's form for apps with their own keys).
    func document(_ endpoint: Endpoint, _ request: HTTPRequest, tenant: String, version: ProtocolVersion,
                  context: RequestScope) throws(OAuthError) -> HTTPResponse {
        let isKeySet = endpoint == .v2Keys || endpoint == .v1Keys
        if let b2c = try b2cDocument(isKeySet ? .keys : .discovery, request, tenant: tenant, form: .query, context: context) {
            return b2c
        }
        let appID = isKeySet ? nil : request.queryValue("appid").flatMap { $0.isEmpty ? nil : $0 }
        let key = "\(endpoint.rawValue) \(context.baseURL) \(tenant.lowercased())" + (appID.map { " appid=\($0)" } ?? "")
        return try cachedDocument(key, context: context) {
            isKeySet ? provider.discovery.keySet(tenant: tenant, version: version, context: context)
                : provider.discovery.openIDConfiguration(tenant: tenant, version: version, context: context, appID: appID)
        }
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
        return .uncachedJSON(try appTokenTemplates.answer(request, version: version, scope: context, provider: provider) {
            () throws(OAuthError) in
            let parameters: [(name: String, value: String)]
            do throws(URLEncodingError) { parameters = try URLEncodedForm.decode(request.body) } catch {
                throw .malformedRequest(error.description)
            }
            let tokenRequest = TokenRequest(tenant: tenant, version: version, parameters: parameters,
                                            basicCredentials: Self.basicCredentials(request.headers["Authorization"]))
            return try provider.token(tokenRequest, context: context).get()
        })
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

    /// Entra's Kerberos proxy (MS-KKDCP), which this server does not implement.
    static func kerberos(_ request: HTTPRequest) -> HTTPResponse {
        var r = jsonError(status: .notImplemented, error: .notSupported,
                          description: "This server does not implement Entra's Kerberos proxy (MS-KKDCP).")
        r.rejectionReason = "the Kerberos endpoint is not implemented (\(request.method) \(request.path))"
        return r
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
