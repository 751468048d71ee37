/// Everything the identity provider serves: token lifetimes, extra host names and the tenants with their users and apps.
public struct IdentityProviderConfiguration: Sendable, Equatable {
    /// Lifetimes of tokens, codes and refresh tokens.
    public var tokens: TokenSettings
    /// Extra host names served (and put into the TLS certificate).
    public var hosts: [String]
    /// The tenants served.
    public var tenants: [Tenant]
    /// External issuers whose tokens federated credentials may accept.
    public var trustedIssuers: [TrustedIssuer]

    /// A configuration; the defaults serve no tenant.
    public init(tokens: TokenSettings = TokenSettings(), hosts: [String] = [], tenants: [Tenant] = [],
                trustedIssuers: [TrustedIssuer] = []) {
        self.tokens = tokens
        self.hosts = hosts
        self.tenants = tenants
        self.trustedIssuers = trustedIssuers
    }
}

/// Lifetimes, in seconds, of what the provider issues.
public struct TokenSettings: Sendable, Equatable {
    /// Access and ID tokens.
    public var lifetime: Int
    /// Refresh tokens.
    public var refreshLifetime: Int
    /// Authorization codes.
    public var codeLifetime: Int

    /// Entra's defaults unless told: one hour, one day, five minutes.
    public init(lifetime: Int = 3600, refreshLifetime: Int = 86400, codeLifetime: Int = 300) {
        self.lifetime = lifetime
        self.refreshLifetime = refreshLifetime
        self.codeLifetime = codeLifetime
    }
}
