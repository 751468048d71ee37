/// What a B2C authorize request that passed its checks does next in the browser, by the kind of its policy: B2C's
/// counterpart of `Interaction`, decided in Core so it can be tested without HTTP. `MockIDP`'s `B2CSignInFlow`
/// turns each case into a page or a response.
package enum B2CInteraction: Sendable {
    /// Answer the client now as this account of the browser session.
    case answer(SessionEntry)
    /// The app's `headlessSignIn`: `login_hint` names this user of the policy's tenant, signed in without a page.
    case headlessSignIn(User)
    /// The sign-in page (with "Forgot your password?" and "Sign up now" where the policy offers them).
    case signInPage(username: String?)
    /// The sign-up form.
    case signUpPage(email: String?)
    /// The password-reset form.
    case resetPage(email: String?)
    /// The profile form for the session's one account.
    case profilePage(SessionEntry)
    /// An error to the redirect URI, without a page (`prompt=none` with no single account, a ROPC policy).
    case sendError(OAuthError)
}

/// What a B2C page posts back (`mockidp_action`), admitted only where the policy's pages offer it.
package enum B2CPageAction: String, Sendable, CaseIterable {
    /// The sign-in form.
    case signIn = "signin"
    /// "Forgot your password?" on the sign-in page.
    case forgotPassword = "forgot"
    /// "Sign up now" on the sign-in page: show the sign-up form.
    case signUpPage = "signup_page"
    /// The sign-up form.
    case signUp = "signup"
    /// The password-reset form.
    case reset
    /// The profile form.
    case profile
    /// Cancel, on every page.
    case cancel

    /// The action `name` names when a page of a `kind` policy sends it; nil for any other.
    package init?(_ name: String, policy kind: PolicyKind) {
        guard let action = Self(rawValue: name) else { return nil }
        let offered: Bool
        switch action {
        case .signIn, .forgotPassword: offered = kind.offersSignIn
        case .signUpPage, .signUp: offered = kind.offersSignUp
        case .reset: offered = kind == .passwordReset
        case .profile: offered = kind == .profileEdit
        case .cancel: offered = true
        }
        guard offered else { return nil }
        self = action
    }
}

extension SignIn {
    /// B2C's decision for a browser arriving with `request` (at a B2C policy) and the session `sessionID` (nil: no
    /// cookie): reset and sign-up policies show their form; profile edit shows the form for the session's one
    /// account (else signs in first); sign-in policies answer from one usable account (`prompt=none`: that or
    /// `login_required`), sign a `headlessSignIn` app's hinted user in, or show the sign-in page.
    package func b2cInteraction(for request: ValidatedAuthorization, sessionID: String?, directory: Directory) -> B2CInteraction {
        guard let authority = request.b2c else { preconditionFailure("B2C interactions are for B2C requests") }
        let accounts = usableSessionAccounts(request, sessionID: sessionID, directory: directory)
        let only = accounts.count == 1 ? accounts.first : nil
        switch authority.policy.kind {
        case .ropc:
            // `AuthorizeEndpoint.checkAuthorization` stops these first; answered alike should one get here.
            return .sendError(.ropcPolicyHasNoAuthorize(authority.policy.name))
        case .passwordReset:
            return .resetPage(email: request.loginHint)
        case .signUp:
            return .signUpPage(email: request.loginHint)
        case .profileEdit:
            if request.prompt != .login, let only { return .profilePage(only) }
            return .signInPage(username: request.loginHint)
        case .signUpOrSignIn, .signIn:
            switch request.prompt {
            case .none?:
                return only.map(B2CInteraction.answer) ?? .sendError(.loginRequired())
            case .login?:
                return .signInPage(username: request.loginHint)
            default:
                if request.client.headlessSignIn, let hint = request.loginHint,
                   let user = authority.tenant.users.first(where: { $0.username.lowercased() == hint.lowercased() }) {
                    return .headlessSignIn(user)
                }
                return only.map(B2CInteraction.answer) ?? .signInPage(username: request.loginHint)
            }
        }
    }
}
