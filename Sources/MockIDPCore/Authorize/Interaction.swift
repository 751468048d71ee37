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
