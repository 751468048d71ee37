import MockIDPJOSE

extension IdentityProvider {
    /// Checks a username and password typed into the sign-in page for the tenant of the request
    /// (`common`/`organizations`: the tenant of the username's domain).
    package func verifyPassword(username: String, password: String, tenantSegment: String,
                                claims: ClaimSet? = nil, directory: Directory) -> Result<(User, Tenant), OAuthError> {
        guard let authority = Authority(segment: tenantSegment, directory: directory) else {
            return .failure(.tenantNotFound(tenantSegment, forDiscovery: false))
        }
        do throws(OAuthError) {
            let tenant = try tenantForUser(authority, username: username, directory: directory)
            let user = try authenticatedUser(username, password: password, tenant: tenant, directory: directory, claims: claims)
            return .success((user, tenant))
        } catch {
            return .failure(error)
        }
    }

    /// A new, unguessable value (form tokens, nonces).
    package func newSessionID() -> String { Base64URL.encode(random.bytes(32)) }

    /// The accounts of a browser session that still exist and may sign in to `tenantSegment`.
    package func sessionAccounts(_ sessionID: String?, tenantSegment: String, directory: Directory) -> [(account: SessionAccount, user: User, tenant: Tenant)] {
        let accounts = sessions.accounts(sessionID)
        let authority = Authority(segment: tenantSegment, directory: directory)
        return accounts.compactMap { account in
            guard let tenant = directory.tenant(account.tenantID), let user = directory.user(account.username, in: tenant),
                  user.objectID == account.objectID else { return nil }
            if let specific = authority?.specificTenant, specific.id != tenant.id { return nil }
            return (account, user, tenant)
        }
    }

    /// Whether `name` (a `login_hint`) names `user` of `tenant`: the username, or for a guest the name they use at home
    /// (Entra: a B2B guest is hinted, and signs in, with their own account's name).
    package func isNamed(_ name: String, user: User, in tenant: Tenant, directory: Directory) -> Bool {
        user.username.lowercased() == name.lowercased() || directory.user(name, in: tenant)?.objectID == user.objectID
    }

    /// Users the sign-in page offers to pick from: the tenant's, or every tenant's for common/organizations.
    /// At a cloud's host (`hostScope`), common/organizations offer only that cloud's users.
    package func pickableUsers(tenantSegment: String, hostScope: HostScope = .neutral, directory: Directory) -> [(user: User, tenant: Tenant)] {
        switch Authority(segment: tenantSegment, directory: directory) {
        case .tenant(let t): return t.users.map { ($0, t) }
        case .common, .organizations:
            return directory.configuration.tenants.filter(hostScope.serves).flatMap { t in t.users.map { ($0, t) } }
        case .consumers: return directory.tenant(Authority.consumersTenantID).map { t in t.users.map { ($0, t) } } ?? []
        case nil: return []
        }
    }

    /// Whether `uri` may receive a user after logout: registered for `clientID`, or for any app of the tenant.
    package func isRegisteredLogoutRedirect(_ uri: String, clientID: String?, tenantSegment: String, directory: Directory) -> Bool {
        guard let authority = Authority(segment: tenantSegment, directory: directory) else { return false }
        let apps: [Application]
        if let clientID, let app = authorizationClient(clientID, authority: authority, directory: directory) {
            apps = [app]
        } else {
            apps = authority.specificTenant?.apps ?? directory.configuration.tenants.flatMap(\.apps)
        }
        return apps.contains { RedirectURI.match(uri, registered: $0.redirectURIs) != nil }
    }
}
