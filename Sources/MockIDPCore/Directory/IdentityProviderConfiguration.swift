/// Everything the identity provider serves: token lifetimes, extra host names and the tenants with their users and apps.
public struct IdentityProviderConfiguration: Sendable, Equatable {
    public var tokens: TokenSettings
    /// Extra host names served (and put into the TLS certificate).
    public var hosts: [String]
    public var tenants: [Tenant]

    public init(tokens: TokenSettings = TokenSettings(), hosts: [String] = [], tenants: [Tenant] = []) {
        self.tokens = tokens
        self.hosts = hosts
        self.tenants = tenants
    }
}

/// Lifetimes, in seconds, of what the provider issues.
public struct TokenSettings: Sendable, Equatable {
    /// Access and ID tokens.
    public var lifetime: Int
    public var refreshLifetime: Int
    /// Authorization codes.
    public var codeLifetime: Int

    public init(lifetime: Int = 3600, refreshLifetime: Int = 86400, codeLifetime: Int = 300) {
        self.lifetime = lifetime
        self.refreshLifetime = refreshLifetime
        self.codeLifetime = codeLifetime
    }
}
