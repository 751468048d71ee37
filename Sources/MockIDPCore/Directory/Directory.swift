import MockIDPJOSE
import MockIDPText

/// The directory a request reads: the configuration indexed for lookups (tenants by id and domain, users by name,
/// apps by client id and identifier URI) and the signing keys. Immutable: the provider swaps it whole when the
/// control API changes users, apps or keys (`IdentityProvider.snapshot()`).
///
/// A class, so that passing it along costs one reference count: a request hands its snapshot to the token factory,
/// its context and each check, and as a struct of a dozen tables each copy retained every one of them, on tables
/// both workers share.
package final class Directory: Sendable {
    /// The configuration being served.
    package let configuration: IdentityProviderConfiguration
    /// Every published signing key, the one that signs first.
    package let signingKeys: [SigningKey]
    /// Bumped whenever what discovery and key sets say can change (configuration, keys), so callers can cache them.
    package let generation: Int
    private let tenantIndex: [String: Int]
    private let userIndex: [Int: [String: Int]]
    private let appIndex: [Int: [String: Int]]
    private let identifierIndex: [Int: [String: Int]]
    /// Per tenant: guests by the name they sign in with at home (lower-case) → user index.
    private let guestIndex: [Int: [String: Int]]
    /// Multi-tenant apps by client ID and by identifier URI (lower-case) → (tenant, app) indexes in configuration
    /// order, so a client from another tenant is found without walking every tenant.
    private let multiTenantApps: [String: [(tenant: Int, app: Int)]]
    private let multiTenantIdentifiers: [String: [(tenant: Int, app: Int)]]
    /// Managed identities of every tenant by client, object and resource ID.
    let managedIdentities: ManagedIdentityIndex
    /// Per tenant: its groups (configured ones in order, then a standard group for each id users list but no
    /// entry defines), and their positions by id.
    private let groupLists: [Int: [Group]]
    private let groupIndex: [Int: [String: Int]]

    init(_ configuration: IdentityProviderConfiguration, signingKeys: [SigningKey], generation: Int) {
        precondition(!signingKeys.isEmpty, "the key ring is never empty")
        self.configuration = configuration
        self.signingKeys = signingKeys
        self.generation = generation
        var tenants: [String: Int] = [:]
        var users: [Int: [String: Int]] = [:]
        var apps: [Int: [String: Int]] = [:]
        var identifiers: [Int: [String: Int]] = [:]
        var shared: [String: [(tenant: Int, app: Int)]] = [:]
        var sharedIdentifiers: [String: [(tenant: Int, app: Int)]] = [:]
        for (t, tenant) in configuration.tenants.enumerated() {
            for (a, app) in tenant.apps.enumerated() where app.multiTenant {
                shared[app.clientID.lowercased(), default: []].append((t, a))
                for uri in app.identifierURIs { sharedIdentifiers[uri.lowercased(), default: []].append((t, a)) }
            }
            tenants[tenant.id.lowercased()] = t
            for d in tenant.domains { tenants[d.lowercased()] = t }
            users[t] = Dictionary(tenant.users.enumerated().map { ($1.username.lowercased(), $0) }, uniquingKeysWith: { a, _ in a })
            apps[t] = Dictionary(tenant.apps.enumerated().map { ($1.clientID.lowercased(), $0) }, uniquingKeysWith: { a, _ in a })
            var ids: [String: Int] = [:]
            for (a, app) in tenant.apps.enumerated() {
                for uri in app.identifierURIs { ids[uri.lowercased()] = a }
            }
            identifiers[t] = ids
        }
        tenantIndex = tenants
        userIndex = users
        appIndex = apps
        identifierIndex = identifiers
        multiTenantApps = shared
        multiTenantIdentifiers = sharedIdentifiers
        managedIdentities = ManagedIdentityIndex(configuration.tenants)
        var groupLists: [Int: [Group]] = [:]
        var groupIndex: [Int: [String: Int]] = [:]
        for (t, tenant) in configuration.tenants.enumerated() {
            var list: [Group] = []
            var index: [String: Int] = [:]
            for group in tenant.groups + tenant.users.flatMap({ $0.groups.map(Group.standard) })
            where index[group.id.lowercased()] == nil {
                index[group.id.lowercased()] = list.count
                list.append(group)
            }
            groupLists[t] = list
            groupIndex[t] = index
        }
        self.groupLists = groupLists
        self.groupIndex = groupIndex
        var guests: [Int: [String: Int]] = [:]
        for (t, tenant) in configuration.tenants.enumerated() {
            for (u, user) in tenant.users.enumerated() where user.homeTenantID != nil {
                let home = Self.homeAccount(of: user, in: tenant, configuration: configuration, tenantIndex: tenants, userIndex: users)
                if guests[t, default: [:]][home.username.lowercased()] == nil { guests[t, default: [:]][home.username.lowercased()] = u }
            }
        }
        guestIndex = guests
    }

    /// `other`'s tables with another key ring or generation.
    private init(_ other: Directory, signingKeys: [SigningKey], generation: Int) {
        configuration = other.configuration
        self.signingKeys = signingKeys
        self.generation = generation
        tenantIndex = other.tenantIndex
        userIndex = other.userIndex
        appIndex = other.appIndex
        identifierIndex = other.identifierIndex
        guestIndex = other.guestIndex
        multiTenantApps = other.multiTenantApps
        multiTenantIdentifiers = other.multiTenantIdentifiers
        managedIdentities = other.managedIdentities
        groupLists = other.groupLists
        groupIndex = other.groupIndex
    }

    /// The key that signs.
    var activeKey: SigningKey {
        guard let first = signingKeys.first else { preconditionFailure("the key ring is never empty") }
        return first
    }

    /// This directory with `keys` as its key ring.
    func withSigningKeys(_ keys: [SigningKey]) -> Directory {
        Directory(self, signingKeys: keys, generation: generation)
    }

    func withGeneration(_ generation: Int) -> Directory {
        Directory(self, signingKeys: signingKeys, generation: generation)
    }

    /// The tenant with this GUID or domain.
    func tenant(_ idOrDomain: String) -> Tenant? {
        tenantIndex[idOrDomain.lowercasedIfNeeded()].map { configuration.tenants[$0] }
    }

    /// The tenant whose domain is the part after '@' in a username.
    func tenant(forUsername username: String) -> Tenant? {
        guard let at = username.lastIndex(of: "@") else { return nil }
        return tenant(String(username[username.index(after: at)...]))
    }

    /// The user of `tenant` who signs in as `username`: a member by username, or a guest by the name they use
    /// at home (Entra: a B2B guest signs in to the inviting tenant with their own account).
    package func user(_ username: String, in tenant: Tenant) -> User? {
        guard let t = tenantIndex[tenant.id] else { return nil }
        let key = username.lowercased()
        guard let u = userIndex[t]?[key] ?? guestIndex[t]?[key] else { return nil }
        return configuration.tenants[t].users[u]
    }

    /// The user's account in their home tenant: for a member, the user itself; for a guest (`homeTenant`), the
    /// home tenant's user whose username (else whose email) is one of the guest's home names (the `#EXT#` name
    /// decoded, the email, a username that is no `#EXT#` name), or, when the home tenant has no such user, the object
    /// ID that tenant would derive for the first of those names. Entra: `client_info` names the home object and
    /// tenant, so MSAL keys one account (`uid.utid`) with a profile per tenant (IdentityCore's `MSIDClientInfo.m`
    /// and `MSIDAccountIdentifier.m`; MSAL Python's token cache `home_account_id`).
    func homeAccount(of user: User, in tenant: Tenant) -> HomeAccount {
        Self.homeAccount(of: user, in: tenant, configuration: configuration, tenantIndex: tenantIndex, userIndex: userIndex)
    }

    /// `homeAccount(of:in:)` on the tables it reads, which the initializer has before the directory exists.
    private static func homeAccount(of user: User, in tenant: Tenant, configuration: IdentityProviderConfiguration,
                                    tenantIndex: [String: Int], userIndex: [Int: [String: Int]]) -> HomeAccount {
        guard let homeID = user.homeTenantID?.lowercased(), homeID != tenant.id else {
            return HomeAccount(tenantID: tenant.id, objectID: user.objectID, username: user.username)
        }
        let decoded = Self.decodedGuestName(user.username)
        let names = [decoded, user.email, decoded == nil ? user.username : nil].compactMap { $0 }
        if let t = tenantIndex[homeID] {
            let members = configuration.tenants[t].users
            let keys = names.map { $0.lowercased() }
            let found = keys.lazy.compactMap { userIndex[t]?[$0] }.first
                ?? members.firstIndex { member in member.email.map { keys.contains($0.lowercased()) } ?? false }
            if let u = found {
                let member = members[u]
                return HomeAccount(tenantID: homeID, objectID: member.objectID, username: member.username)
            }
        }
        let name = names.first ?? user.username
        return HomeAccount(tenantID: homeID, objectID: User.derivedObjectID(tenantID: homeID, username: name), username: name)
    }

    /// The user of `target` who is the same person as `user` of `tenant`: the one whose home account is the same
    /// (the guest in `target` of a member of `tenant`, the member at home of a guest, or a guest of the same person).
    func user(sameAccountAs user: User, from tenant: Tenant, in target: Tenant) -> User? {
        let home = homeAccount(of: user, in: tenant)
        return target.users.first { candidate in
            let other = homeAccount(of: candidate, in: target)
            return other.tenantID == home.tenantID && other.objectID == home.objectID
        }
    }

    /// Entra names an invited user `<mail with @ as _>#EXT#@<inviting domain>`: the mail back, or nil.
    static func decodedGuestName(_ username: String) -> String? {
        let parts = username.split(separator: "#", omittingEmptySubsequences: false)
        guard parts.count >= 3, parts[1].lowercased() == "ext" else { return nil }
        let mail = parts[0]
        guard let underscore = mail.lastIndex(of: "_") else { return nil }
        return mail[..<underscore] + "@" + mail[mail.index(after: underscore)...]
    }

    /// Every group of `tenant`: the configured ones, then those users name that nobody defines.
    package func groups(in tenant: Tenant) -> [Group] {
        tenantIndex[tenant.id].flatMap { groupLists[$0] } ?? []
    }

    /// The group of `tenant` with this object ID.
    package func group(_ id: String, in tenant: Tenant) -> Group? {
        guard let t = tenantIndex[tenant.id], let g = groupIndex[t]?[id.lowercased()] else { return nil }
        return groupLists[t]?[g]
    }

    /// The groups `user` is a direct member of, in the order the user lists them.
    package func groups(of user: User, in tenant: Tenant) -> [Group] {
        user.groups.compactMap { group($0, in: tenant) }
    }

    package func user(objectID: String, in tenant: Tenant) -> User? {
        tenant.users.first { $0.objectID == objectID.lowercased() }
    }

    /// The app registered in `tenant`, or a multi-tenant app registered elsewhere (it gets a service principal anywhere).
    func app(_ clientID: String, in tenant: Tenant) -> Application? {
        let key = clientID.lowercasedIfNeeded()
        let home = tenantIndex[tenant.id]
        if let t = home, let a = appIndex[t]?[key] { return configuration.tenants[t].apps[a] }
        guard let (t, a) = multiTenantApps[key]?.first(where: { $0.tenant != home }) else { return nil }
        return configuration.tenants[t].apps[a]
    }

    /// An API app by identifier URI or client id, in `tenant` or multi-tenant elsewhere.
    func api(_ identifier: String, in tenant: Tenant) -> Application? {
        api(lowercased: identifier.lowercasedIfNeeded(), in: tenant)
    }

    /// `api(_:in:)` for an identifier already in lower case.
    func api(lowercased key: String, in tenant: Tenant) -> Application? {
        let home = tenantIndex[tenant.id]
        if let t = home, let a = identifierIndex[t]?[key] { return configuration.tenants[t].apps[a] }
        if GUID.isValid(key), let app = app(key, in: tenant) { return app }
        guard let (t, a) = multiTenantIdentifiers[key]?.first(where: { $0.tenant != home }) else { return nil }
        return configuration.tenants[t].apps[a]
    }
}

