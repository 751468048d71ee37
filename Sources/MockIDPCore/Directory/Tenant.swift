/// A directory: an Entra ID tenant, an Azure AD B2C tenant or an External ID tenant, with its users and app registrations.
public struct Tenant: Sendable, Equatable {
    /// The tenant GUID, lower-case.
    public var id: String
    /// Verified domains; the first is the primary one.
    public var domains: [String]
    /// The display name (the sign-in page shows it).
    public var name: String?
    /// The cloud whose hosts serve the tenant.
    public var cloud: CloudName
    /// How sign-in treats user names the tenant does not list (`signIn: {anyUser: true}`).
    public var signIn: SignInSettings
    /// Present only for an Azure AD B2C tenant.
    public var b2c: B2CSettings?
    /// Present only for a Microsoft Entra External ID (customer) tenant.
    public var externalID: ExternalIDSettings?
    /// The people who can sign in.
    public var users: [User]
    /// The app registrations.
    public var apps: [Application]
    /// Azure managed identities of the tenant.
    public var managedIdentities: [ManagedIdentity]
    /// The directory's groups as configured (ids that users list but nobody defines are added by `Directory`).
    public var groups: [Group] = []
    /// The US government community of the tenant (`tenant_region_sub_scope` in its discovery documents); nil for
    /// other tenants, and for a `usgov` tenant that is GCC High, the default there (`effectiveRegionSubScope`).
    public var regionSubScope: RegionSubScope?

    /// A tenant; only `id` is required.
    public init(id: String, domains: [String] = [], name: String? = nil, cloud: CloudName = .public,
                signIn: SignInSettings = SignInSettings(), b2c: B2CSettings? = nil, users: [User] = [], apps: [Application] = [],
                managedIdentities: [ManagedIdentity] = [], groups: [Group] = [], regionSubScope: RegionSubScope? = nil,
                externalID: ExternalIDSettings? = nil) {
        self.id = id
        self.externalID = externalID
        self.regionSubScope = regionSubScope
        self.groups = groups
        self.domains = domains
        self.name = name
        self.cloud = cloud
        self.signIn = signIn
        self.b2c = b2c
        self.users = users
        self.apps = apps
        self.managedIdentities = managedIdentities
    }

    /// The primary domain, or `{id}.onmicrosoft.com`-less GUID when none is configured.
    public var primaryDomain: String { domains.first ?? id }
    /// The display name Entra shows in messages.
    public var displayName: String { name ?? primaryDomain }
}

/// How a tenant's sign-in treats user names it does not list.
public struct SignInSettings: Sendable, Equatable {
    /// Any user name in the tenant's domains signs in with any password: the user is made on the fly, with the
    /// object ID a configured user without `oid` gets, and may bring claims for that sign-in's tokens.
    public var anyUser: Bool

    /// Settings; by default only configured users sign in.
    public init(anyUser: Bool = false) { self.anyUser = anyUser }
}

/// The Azure AD B2C part of a tenant.
public struct B2CSettings: Sendable, Equatable {
    /// User flows and custom policies, e.g. `B2C_1_signupsignin`.
    public var policies: [String]
    /// Which claim carries the policy name.
    public var policyClaim: PolicyClaim

    /// B2C settings with these user flows, naming the policy in `policyClaim`.
    public init(policies: [String], policyClaim: PolicyClaim = .tfp) {
        self.policies = policies
        self.policyClaim = policyClaim
    }
}

/// Where B2C puts the policy name in tokens.
public enum PolicyClaim: String, Sendable, CaseIterable {
    case tfp
    case acr
}
