/// What an authorize request that passed its checks does next in the browser: the sign-in decisions of
/// docs/entra-behaviour.md, "Sign-in decisions" (`prompt`, `login_hint`, `max_age`, the browser session), made in Core
/// so they can be tested without HTTP. `MockIDP` turns each case into a page or a response.
package enum Interaction: Sendable {
    /// Answer the client now as this account of the browser session.
    case answer(SessionEntry)
    /// The app's `headlessSignIn`: `login_hint` names this user, who is signed in without a page; or `login_hint`
    /// and a `claims` parameter with claims of its own sign in a user made on the fly.
    case headlessSignIn(user: User, tenant: Tenant)
    /// `prompt=none` without exactly one usable account: Entra's `login_required` to the redirect URI.
    case loginRequired
    /// The sign-in page, with `username` filled in; `offerSessionAccounts` lists the session's accounts to pick.
    case signInPage(username: String?, offerSessionAccounts: Bool)
    /// The consent page for the account the session holds.
    case consentPage(SessionEntry)
}

/// An account of a browser session with the user and tenant it stands for.
package struct SessionEntry: Sendable {
    package var account: SessionAccount
    package var user: User
    package var tenant: Tenant
}

extension IdentityProvider {
    /// The session's accounts that may answer `request`: those `login_hint` names when given, signed in recently
    /// enough for `max_age`.
    package func usableSessionAccounts(_ request: ValidatedAuthorization, sessionID: String?, directory: Directory) -> [SessionEntry] {
        let now = clock.now()
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
               let tenant = tenantMakingUsers(hint, tenantSegment: request.tenantSegment, hostScope: hostScope, directory: directory),
               let user = userOnTheFly(hint, tenant: tenant, claims: claims, directory: directory) {
                return .headlessSignIn(user: user, tenant: tenant)
            }
            return only.map(Interaction.answer) ?? .signInPage(username: request.loginHint, offerSessionAccounts: true)
        }
    }
}
