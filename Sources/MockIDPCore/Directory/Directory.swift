/// The configuration indexed for lookups: tenants by id and domain, users by name, apps by client id and identifier URI.
struct Directory: Sendable {
    let configuration: IdentityProviderConfiguration
    private let tenantIndex: [String: Int]
    private let userIndex: [Int: [String: Int]]
    private let appIndex: [Int: [String: Int]]
    private let identifierIndex: [Int: [String: Int]]

    init(_ configuration: IdentityProviderConfiguration) {
        self.configuration = configuration
        var tenants: [String: Int] = [:]
        var users: [Int: [String: Int]] = [:]
        var apps: [Int: [String: Int]] = [:]
        var identifiers: [Int: [String: Int]] = [:]
        for (t, tenant) in configuration.tenants.enumerated() {
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
    }

    /// The tenant with this GUID or domain.
    func tenant(_ idOrDomain: String) -> Tenant? {
        tenantIndex[idOrDomain.lowercased()].map { configuration.tenants[$0] }
    }

    /// The tenant whose domain is the part after '@' in a username.
    func tenant(forUsername username: String) -> Tenant? {
        guard let at = username.lastIndex(of: "@") else { return nil }
        return tenant(String(username[username.index(after: at)...]))
    }

    func user(_ username: String, in tenant: Tenant) -> User? {
        guard let t = tenantIndex[tenant.id], let u = userIndex[t]?[username.lowercased()] else { return nil }
        return configuration.tenants[t].users[u]
    }

    func user(objectID: String, in tenant: Tenant) -> User? {
        tenant.users.first { $0.objectID == objectID.lowercased() }
    }

    /// The app registered in `tenant`, or a multi-tenant app registered elsewhere (it gets a service principal anywhere).
    func app(_ clientID: String, in tenant: Tenant) -> Application? {
        let key = clientID.lowercased()
        if let t = tenantIndex[tenant.id], let a = appIndex[t]?[key] { return configuration.tenants[t].apps[a] }
        for (t, other) in configuration.tenants.enumerated() where other.id != tenant.id {
            if let a = appIndex[t]?[key], other.apps[a].multiTenant { return other.apps[a] }
        }
        return nil
    }

    /// An API app by identifier URI or client id, in `tenant` or multi-tenant elsewhere.
    func api(_ identifier: String, in tenant: Tenant) -> Application? {
        let key = identifier.lowercased()
        if let t = tenantIndex[tenant.id], let a = identifierIndex[t]?[key] { return configuration.tenants[t].apps[a] }
        if GUID.isValid(key), let app = app(key, in: tenant) { return app }
        for (t, other) in configuration.tenants.enumerated() where other.id != tenant.id {
            if let a = identifierIndex[t]?[key], other.apps[a].multiTenant { return other.apps[a] }
        }
        return nil
    }
}
