import MockIDPJOSE

/// The sign-in page's and the browser session's decisions: passwords, the session's accounts, who may be picked, the
/// interaction an authorize request needs (`Interaction`), and where logout may send the browser.
package struct SignIn {
    let provider: IdentityProvider

    /// Checks a username and password typed into the sign-in page for the tenant of the request
    /// (`common`/`organizations`: the tenant of the username's domain).
    package func verifyPassword(username: String, password: String, tenantSegment: String,
                                claims: ClaimSet? = nil, directory: Directory) -> Result<(User, Tenant), OAuthError> {
        guard let authority = Authority(segment: tenantSegment, directory: directory) else {
            return .failure(.tenantNotFound(tenantSegment, forDiscovery: false))
        }
        do throws(OAuthError) {
            let tenant = try authority.tenant(forUser: username, in: directory)
            let user = try provider.usersOnTheFly.authenticatedUser(username, password: password, tenant: tenant, directory: directory, claims: claims)
            return .success((user, tenant))
        } catch {
            return .failure(error)
        }
    }

    /// The accounts of a browser session that still exist and may sign in to `tenantSegment`.
    package func sessionAccounts(_ sessionID: String?, tenantSegment: String, directory: Directory) -> [(account: SessionAccount, user: User, tenant: Tenant)] {
        let accounts = provider.sessions.accounts(sessionID)
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
        if let clientID, let app = directory.authorizationClient(clientID, authority: authority) {
            apps = [app]
        } else {
            apps = authority.specificTenant?.apps ?? directory.configuration.tenants.flatMap(\.apps)
        }
        return apps.contains { RedirectURI.match(uri, registered: $0.redirectURIs) != nil }
    }

    /// The session's accounts that may answer `request`: those `login_hint` names when given, signed in recently
    /// enough for `max_age`.
    package func usableSessionAccounts(_ request: ValidatedAuthorization, sessionID: String?, directory: Directory) -> [SessionEntry] {
        let now = provider.clock.now()
        return sessionAccounts(sessionID, tenantSegment: request.tenantSegment, directory: directory).compactMap { entry in
            if let hint = request.loginHint, !isNamed(hint, user: entry.user, in: entry.tenant, directory: directory) { return nil }
            if let maxAge = request.maxAge, now - entry.account.authTime > maxAge { return nil }
            return SessionEntry(account: entry.account, user: entry.user, tenant: entry.tenant)
        }
    }

    /// Entra's decision for a browser arriving with `request` and the session `sessionID` (nil: no cookie), on a
    /// host of `hostScope`.
    package func interaction(for request: ValidatedAuthorization, sessionID: String?, hostScope: HostScope, directory: Directory) -> Interaction {
        let accounts = usableSessionAccounts(request, sessionID: sessionID, directory: directory)
        let only = accounts.count == 1 ? accounts.first : nil
        switch request.prompt {
        case .none?:
            return only.map(Interaction.answer) ?? .loginRequired
        case .login?, .create?:
            return .signInPage(username: request.loginHint, offerSessionAccounts: false)
        case .selectAccount?:
            return .signInPage(username: nil, offerSessionAccounts: true)
        case .consent?:
            return only.map(Interaction.consentPage) ?? .signInPage(username: request.loginHint, offerSessionAccounts: true)
        case nil:
            if request.client.headlessSignIn, let hint = request.loginHint,
               let entry = pickableUsers(tenantSegment: request.tenantSegment, hostScope: hostScope, directory: directory)
                   .first(where: { isNamed(hint, user: $0.user, in: $0.tenant, directory: directory) }) {
                return .headlessSignIn(user: entry.user, tenant: entry.tenant)
            }
            // mockidp's own: `login_hint` and a `claims` parameter with claims of its own sign a user made on the fly
            // in without a page (the claims request members Entra reads are left to the token step).
            if let hint = request.loginHint, let claims = request.signInClaims,
               let tenant = provider.usersOnTheFly.tenantMakingUsers(hint, tenantSegment: request.tenantSegment, hostScope: hostScope, directory: directory),
               let user = provider.usersOnTheFly.userOnTheFly(hint, tenant: tenant, claims: claims, directory: directory) {
                return .headlessSignIn(user: user, tenant: tenant)
            }
            return only.map(Interaction.answer) ?? .signInPage(username: request.loginHint, offerSessionAccounts: true)
        }
    }
}
