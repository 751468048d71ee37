import MockIDPText

/// Where a request came: the base URL the client used, the host name and what that host serves. Decided by the
/// scheme and `Host` alone, so the edge may keep it for hosts it has seen.
package struct RequestHost: Sendable {
    /// `scheme://host[:port]` as the client sees this server (from `Host`, or `--public-url`).
    package var baseURL: String
    /// The host name without port, lower-case; decides the cloud.
    package var host: String
    /// Which tenants the host serves and as which cloud it answers.
    package var hostScope: HostScope

    /// A request that came to `baseURL`, whose host name (without port) is `host`.
    package init(baseURL: String, host: String) {
        self.baseURL = baseURL
        self.host = host.lowercasedIfNeeded()
        hostScope = HostScope(host: self.host)
    }
}

/// Everything Core needs to know of the request it answers, built once at the edge and never partial: where it came
/// (`RequestHost`), the directory snapshot every part of the request reads, the dialect it speaks, and the client's
/// correlation ID and address.
package struct RequestScope: Sendable {
    /// `scheme://host[:port]` as the client sees this server (from `Host`, or `--public-url`).
    package var baseURL: String
    /// The host name without port, lower-case; decides the cloud.
    package var host: String
    /// Which tenants the host serves and as which cloud it answers.
    package var hostScope: HostScope
    /// The directory snapshot taken for this request: every part of the request reads this one.
    package let directory: Directory
    /// Entra (v1 or v2) or a B2C user flow, resolved once at the edge from the route and the request.
    package var dialect: Dialect
    /// Whose words errors are sent in: B2C's at a user flow (set with `dialect` at the edge), else Entra's.
    package var errorDialect: ErrorDialect = .entra
    /// The client's `client-request-id`, echoed as `correlation_id`.
    package var correlationID: String?
    /// The client's numeric address (the `ipaddr` optional claim); nil when unknown.
    package var clientAddress: String?
    /// The request's `claims` parameter (set by the token endpoint): decides `amr`/`acrs` and which challenges it answers.
    package var claims: ClaimsRequest?

    /// The scope of a request that came to `host`, reading `directory`, in Entra's v2 dialect until the edge
    /// resolves the route's.
    package init(_ host: RequestHost, directory: Directory, correlationID: String? = nil) {
        baseURL = host.baseURL
        self.host = host.host
        hostScope = host.hostScope
        self.directory = directory
        dialect = .entra(.v2)
        self.correlationID = correlationID
    }

    /// The scheme and host of v2 issuers: a cloud's login host names its canonical issuer host whichever alias
    /// was used (Entra: `login.windows.net` still issues `https://login.microsoftonline.com/{tid}/v2.0`); any other
    /// host, this server's base URL.
    package var issuerBaseURL: String {
        if case .login(let cloud) = hostScope { return "https://\(cloud.issuerHost)" }
        return baseURL
    }

    /// The scheme and host of `tenant`'s v2 issuer: for an External ID tenant asked at a ciamlogin host or one of its
    /// custom domains, `https://{tid}.ciamlogin.com` (Microsoft Learn, "Tokens in external tenants": the issuer
    /// names the tenant GUID as host label); otherwise `issuerBaseURL`.
    package func issuerBaseURL(for tenant: Tenant?) -> String {
        guard let tenant, let externalID = tenant.externalID,
              hostScope == .externalID || externalID.customDomains.contains(host) else { return issuerBaseURL }
        return String(joining: "https://", tenant.id, ".", ExternalIDSettings.hostSuffix)
    }

    /// The B2C user flow the request is for; nil in Entra's dialect.
    package var b2c: B2CAuthority? {
        if case .b2c(let authority) = dialect { return authority }
        return nil
    }
}

extension RequestScope {
    /// The cloud the request speaks as: the one whose login (or B2C) host it came to, else `tenant`'s own.
    package func cloud(for tenant: Tenant?) -> Cloud {
        switch hostScope {
        case .login(let cloud), .b2c(let cloud): cloud
        case .externalID: .publicCloud
        case .neutral: tenant.map { Cloud.named($0.cloud) } ?? .publicCloud
        }
    }

    /// Entra's AADSTS90002 when the tenant segment of the request names a configured tenant that the request's host
    /// does not serve (a tenant of another cloud, a non-B2C tenant on a `*.b2clogin.*` host, a workforce tenant on a
    /// `*.ciamlogin.com` host); nil otherwise.
    /// Unknown names are left to the endpoint, which reports them in its own way.
    package func hostRefusal(tenantSegment: String, forDiscovery: Bool) -> OAuthError? {
        guard hostScope != .neutral, let tenant = directory.tenant(tenantSegment) else { return nil }
        return refusal(serving: tenant, named: tenantSegment, forDiscovery: forDiscovery)
    }

    /// AADSTS90002 when `tenant` is not served on the request's host.
    func refusal(serving tenant: Tenant, named: String? = nil, forDiscovery: Bool = false) -> OAuthError? {
        guard !hostScope.serves(tenant) else { return nil }
        var error = OAuthError.tenantNotFound(named ?? tenant.id, forDiscovery: forDiscovery)
        error.reason = hostScope.refusal(of: tenant, host: host)
        return error
    }
}

/// Which protocol version an endpoint speaks.
package enum ProtocolVersion: String, Sendable {
    case v1
    case v2
}
