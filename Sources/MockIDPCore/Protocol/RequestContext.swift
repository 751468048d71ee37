/// What the provider needs to know of the HTTP request it answers: the base URL the client used and its correlation ID.
package struct RequestContext: Sendable {
    /// `scheme://host[:port]` as the client sees this server (from `Host`, or `--public-url`).
    package var baseURL: String
    /// The host name without port, lower-case; decides the cloud.
    package var host: String
    /// The client's `client-request-id`, echoed as `correlation_id`.
    package var correlationID: String?
    /// Which tenants the host serves and as which cloud it answers.
    package var hostScope: HostScope
    /// The request's `claims` parameter (set by the token endpoint): decides `amr`/`acrs` and which challenges it answers.
    package var claims: ClaimsRequest?
    /// Entra or a B2C user flow, resolved once at the edge for endpoints that name a tenant; nil when the caller did
    /// not resolve it (Core then resolves it from the request itself).
    package var dialect: ResolvedDialect?
    /// Whose words errors are sent in: B2C's at a user flow (set with `dialect` at the edge), else Entra's.
    package var errorDialect: ErrorDialect = .entra
    /// The directory snapshot the edge took for this request: every part of the request reads this one.
    package var directory: Directory?
    /// The client's numeric address (the `ipaddr` optional claim); nil when unknown.
    package var clientAddress: String?

    /// The context of a request that came to `baseURL`, whose host name (without port) is `host`.
    package init(baseURL: String, host: String, correlationID: String? = nil) {
        self.baseURL = baseURL
        self.host = host.lowercasedIfNeeded()
        self.correlationID = correlationID
        hostScope = HostScope(host: self.host)
    }

    /// The scheme and host of v2 issuers: a cloud's login host names its canonical issuer host whichever alias
    /// was used (Entra: `login.windows.net` still issues `https://login.microsoftonline.com/{tid}/v2.0`); any other
    /// host, this server's base URL.
    package var issuerBaseURL: String {
        if case .login(let cloud) = hostScope { return "https://\(cloud.issuerHost)" }
        return baseURL
    }
}

/// Which protocol version an endpoint speaks.
package enum ProtocolVersion: String, Sendable {
    case v1
    case v2
}
