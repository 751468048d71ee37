import MockIDPCore
import MockIDPHTTP

/// One B2C authorize request's way through the browser, by the kind of its policy: the sign-in page (with
/// "Forgot your password?" and "Sign up now" where the flow offers them), the sign-up, password-reset and
/// profile-edit forms, and Cancel. Pages post back to the same URL with the protocol parameters as hidden fields.
struct B2CSignInFlow {
    let base: SignInFlow

    private var provider: IdentityProvider { base.provider }
    private var validated: ValidatedAuthorization { base.validated }
    private var authority: B2CAuthority {
        guard let b2c = base.validated.b2c else { preconditionFailure("B2CSignInFlow runs only for B2C requests") }
        return b2c
    }
    private var kind: PolicyKind { authority.policy.kind }

    /// A request arriving from the client: Core's B2C interaction decision, as a page or a response.
    func start() -> HTTPResponse {
        switch provider.signIn.b2cInteraction(for: validated, sessionID: base.sessionID, directory: base.context.directory) {
        case .answer(let entry):
            return base.complete(user: entry.user, tenant: entry.tenant, authTime: entry.account.authTime, sessionID: base.sessionID)
        case .headlessSignIn(let user):
            return signInAndComplete(user, newUser: false)
        case .signInPage(let username):
            return signInPage(username: username, error: nil)
        case .signUpPage(let email):
            return signUpPage(email: email, error: nil)
        case .resetPage(let email):
            return resetPage(email: email, error: nil)
        case .profilePage(let entry):
            return profilePage(for: entry.user, error: nil)
        case .sendError(let error):
            return sendError(error)
        }
    }

    /// A post from one of the B2C pages (its form token already checked).
    func submit(action: String, fields: [String: String]) -> HTTPResponse {
        func field(_ name: String) -> String { fields[name] ?? "" }
        guard let action = B2CPageAction(action, policy: kind) else {
            return base.handlers.errorPage(.invalidParameter("mockidp_action", "is not one this policy's pages send"), context: base.context)
        }
        switch action {
        case .signIn:
            let username = field("username")
            switch provider.signIn.verifyPassword(username: username, password: field("password"), tenantSegment: validated.tenantSegment, directory: base.context.directory) {
            case .failure(let error):
                base.handlers.logger.debug("B2C sign-in page: \(error.reason)")
                // B2C's texts for a wrong password and an unknown account.
                return signInPage(username: username, error: error.aadsts == 50126 ? "Your password is incorrect." : "We can't seem to find your account.")
            case .success(let (user, tenant)):
                let now = provider.clock.now()
                let session = provider.sessions.add(SessionAccount(user, of: tenant, authTime: now), to: provider.sessions.forSignIn(base.sessionID))
                if kind == .profileEdit { return profilePage(for: user, error: nil, newSession: session) }
                return base.complete(user: user, tenant: tenant, authTime: now, sessionID: session, setSession: true)
            }
        case .forgotPassword:
            // B2C user flows without embedded reset send the app AADB2C90118; the app then starts its reset policy.
            return sendError(.forgotPassword())
        case .signUpPage:
            return signUpPage(email: nil, error: nil)
        case .signUp:
            switch provider.b2cUserFlows.signUp(email: field("email"), password: field("newPassword"), reenteredPassword: field("reenterPassword"),
                                      displayName: field("displayName"), givenName: field("givenName"), surname: field("surname"),
                                      authority: authority, directory: base.context.directory) {
            case .failure(let problem): return signUpPage(email: fields["email"], error: problem.message, values: fields)
            case .success(let user): return signInAndComplete(user, newUser: true)
            }
        case .reset:
            switch provider.b2cUserFlows.resetPassword(email: field("email"), newPassword: field("newPassword"),
                                             reenteredPassword: field("reenterPassword"), authority: authority, directory: base.context.directory) {
            case .failure(let problem): return resetPage(email: fields["email"], error: problem.message)
            case .success(let user): return signInAndComplete(user, newUser: false)
            }
        case .profile:
            let username = field("mockidp_account").lowercased()
            guard let entry = provider.signIn.sessionAccounts(base.sessionID, tenantSegment: validated.tenantSegment, directory: base.context.directory)
                .first(where: { $0.account.username.lowercased() == username }) else {
                return signInPage(username: fields["mockidp_account"], error: nil)
            }
            switch provider.b2cUserFlows.editProfile(entry.user, displayName: field("displayName"), givenName: field("givenName"),
                                           surname: field("surname"), authority: authority, directory: base.context.directory) {
            case .failure(let problem): return profilePage(for: entry.user, error: problem.message)
            case .success(let user):
                return base.complete(user: user, tenant: entry.tenant, authTime: entry.account.authTime, sessionID: base.sessionID)
            }
        case .cancel:
            return sendError(.userCancelled())
        }
    }

    /// A user just created or given a new password is signed in to the browser session, then answered.
    private func signInAndComplete(_ user: User, newUser: Bool) -> HTTPResponse {
        let now = provider.clock.now()
        let session = provider.sessions.add(SessionAccount(user, of: authority.tenant, authTime: now), to: provider.sessions.forSignIn(base.sessionID))
        return base.complete(user: user, tenant: authority.tenant, authTime: now, sessionID: session, setSession: true, newUser: newUser)
    }

    private func sendError(_ error: OAuthError) -> HTTPResponse {
        base.handlers.deliverError(error, state: validated.state, to: validated.redirectURI, mode: validated.responseMode,
                                          context: base.context)
    }

    // MARK: pages

    private var common: [String: Any] {
        ["tenantName": authority.tenant.displayName, "appName": validated.client.displayName, "policy": authority.policy.name]
    }

    private func signInPage(username: String?, error: String?) -> HTTPResponse {
        var context = common
        context["offersReset"] = kind.offersSignIn
        context["offersSignUp"] = kind.offersSignUp
        if let username { context["username"] = username }
        if let error { context["error"] = error }
        return base.page("b2c_signin", context)
    }

    private static func field(_ id: String, _ label: String, type: String = "text", value: String? = nil,
                              autocomplete: String = "off", required: Bool = true, readonly: Bool = false) -> [String: Any] {
        ["id": id, "label": label, "type": type, "value": value ?? "", "autocomplete": autocomplete, "required": required, "readonly": readonly]
    }

    private func selfAsserted(heading: String, intro: String?, submitAction: String, submitLabel: String,
                              fields: [[String: Any]], error: String?, extraHidden: [(name: String, value: String)] = [],
                              newSession: String? = nil) -> HTTPResponse {
        var context = common
        context["heading"] = heading
        if let intro { context["intro"] = intro }
        context["submitAction"] = submitAction
        context["submitLabel"] = submitLabel
        context["fields"] = fields
        if let error { context["error"] = error }
        return base.page("b2c_selfasserted", context, extraHidden: extraHidden, newSession: newSession)
    }

    private func signUpPage(email: String?, error: String?, values: [String: String] = [:]) -> HTTPResponse {
        selfAsserted(heading: "Sign up", intro: "Create an account to continue to \(validated.client.displayName).",
                     submitAction: "signup", submitLabel: "Create", fields: [
                        Self.field("email", "Email Address", type: "email", value: email, autocomplete: "email"),
                        Self.field("newPassword", "New Password", type: "password", autocomplete: "new-password"),
                        Self.field("reenterPassword", "Confirm New Password", type: "password", autocomplete: "new-password"),
                        Self.field("displayName", "Display Name", value: values["displayName"], autocomplete: "name"),
                        Self.field("givenName", "Given Name", value: values["givenName"], autocomplete: "given-name", required: false),
                        Self.field("surname", "Surname", value: values["surname"], autocomplete: "family-name", required: false),
                     ], error: error)
    }

    private func resetPage(email: String?, error: String?) -> HTTPResponse {
        selfAsserted(heading: "Reset your password", intro: "Enter the email address of your account and a new password.",
                     submitAction: "reset", submitLabel: "Continue", fields: [
                        Self.field("email", "Email Address", type: "email", value: email, autocomplete: "email"),
                        Self.field("newPassword", "New Password", type: "password", autocomplete: "new-password"),
                        Self.field("reenterPassword", "Confirm New Password", type: "password", autocomplete: "new-password"),
                     ], error: error)
    }

    private func profilePage(for user: User, error: String?, newSession: String? = nil) -> HTTPResponse {
        let given = user.claims["given_name"]?.stringValue
        let family = user.claims["family_name"]?.stringValue
        return selfAsserted(heading: "Edit your profile", intro: user.username, submitAction: "profile", submitLabel: "Continue", fields: [
            Self.field("displayName", "Display Name", value: user.name, autocomplete: "name"),
            Self.field("givenName", "Given Name", value: given, autocomplete: "given-name", required: false),
            Self.field("surname", "Surname", value: family, autocomplete: "family-name", required: false),
        ], error: error, extraHidden: [("mockidp_account", user.username)], newSession: newSession)
    }
}
