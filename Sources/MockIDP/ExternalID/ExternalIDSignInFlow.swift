import MockIDPCore
import MockIDPHTTP

/// One External ID authorize request's way through the browser, in External ID's order of pages: sign-in (email and
/// password, or email and a one-time code in a `signIn: otp` tenant) with "Create one" and "Forgot password?";
/// sign-up (email, a code mailed to the outbox, a password unless `otp`, the tenant's attributes); password reset
/// (email, code, new password). Pages post back to the same URL with the protocol parameters as hidden fields, and
/// the code's handle (`mockidp_eid_flow`) once one is sent (docs/external-id.md, "Sign-up and sign-in in the browser").
struct ExternalIDSignInFlow {
    let base: SignInFlow
    let tenant: Tenant

    private var provider: IdentityProvider { base.provider }
    private var validated: ValidatedAuthorization { base.validated }
    private var settings: ExternalIDSettings {
        guard let settings = tenant.externalID else { preconditionFailure("ExternalIDSignInFlow runs only for External ID tenants") }
        return settings
    }
    private var flows: ExternalIDUserFlows { provider.externalIDUserFlows }
    private var clientID: String { validated.client.clientID }

    /// The page actions, each posted as `mockidp_action`.
    enum Action: String {
        /// "Create one": the sign-up page.
        case signUp = "eid_signup"
        /// "Forgot password?": the reset page.
        case reset = "eid_reset"
        /// The address typed on a sign-up, reset or code sign-in page: a code is mailed.
        case email = "eid_email"
        /// The code typed.
        case code = "eid_code"
        /// "Send a new code".
        case resend = "eid_resend"
        /// Sign-up's password and attributes, or reset's new password.
        case details = "eid_details"
        /// Back to the sign-in page.
        case back = "eid_back"
    }

    /// Whether `action` is one of these pages'.
    static func handles(_ action: String) -> Bool { Action(rawValue: action) != nil }

    /// A request arriving from the client: `prompt=create` opens sign-up; a code-only tenant's sign-in page asks
    /// for the address alone; everything else is the ordinary flow (sessions, `prompt`, consent).
    func start() -> HTTPResponse {
        if validated.prompt == .create, settings.signUp { return emailPage(.signUp, email: nil, error: nil) }
        if settings.signIn == .otp,
           case .signInPage(let username, _) = provider.signIn.interaction(for: validated, sessionID: base.sessionID,
                                                                             hostScope: base.context.hostScope, directory: base.context.directory) {
            return emailPage(.signIn, email: username, error: nil)
        }
        return base.start()
    }

    /// A post from one of these pages (its form token already checked).
    func submit(action name: String, fields: [String: String]) -> HTTPResponse {
        func field(_ key: String) -> String { (fields[key] ?? "").trimmingSpaces() }
        guard let action = Action(rawValue: name) else {
            return base.handlers.errorPage(.invalidParameter("mockidp_action", "is not one this tenant's pages send"), context: base.context)
        }
        guard let purpose = offeredPurpose(field("mockidp_eid_purpose"), for: action) else {
            return base.handlers.errorPage(.invalidParameter("mockidp_eid_purpose", "is not a step this tenant's pages offer"), context: base.context)
        }
        let handle = field("mockidp_eid_flow")
        switch action {
        case .signUp:
            guard settings.signUp else { return base.signInPage(username: nil, error: "Sign-up is not enabled for this application.", offerSessionAccounts: false) }
            return emailPage(.signUp, email: nil, error: nil)
        case .reset:
            return emailPage(.passwordReset, email: nil, error: nil)
        case .back:
            return settings.signIn == .otp ? emailPage(.signIn, email: nil, error: nil)
                : base.signInPage(username: nil, error: nil, offerSessionAccounts: false)
        case .email, .resend:
            let email = field("email")
            if let refusal = emailRefusal(email, purpose: purpose) { return emailPage(purpose, email: email, error: refusal) }
            let handle = flows.sendCode(to: email, purpose: purpose, tenant: tenant, clientID: clientID)
            return codePage(purpose, email: email, handle: handle, error: nil)
        case .code:
            switch flows.checkCode(handle, code: field("code"), purpose: purpose, tenant: tenant, clientID: clientID) {
            case .failure(let problem):
                return codePage(purpose, email: field("email"), handle: handle, error: problem.message)
            case .success(let email):
                guard purpose == .signIn else { return detailsPage(purpose, email: email, handle: handle, values: [:], error: nil) }
                flows.spend(handle)
                guard let user = base.context.directory.user(email, in: tenant) else {
                    return emailPage(.signIn, email: email, error: "We couldn't find an account with that email address.")
                }
                return signInAndComplete(user, newUser: false)
            }
        case .details:
            guard let email = flows.verifiedEmail(handle, purpose: purpose, tenant: tenant, clientID: clientID) else {
                return emailPage(purpose, email: field("email"), error: "That code has expired. Please request a new code.")
            }
            let password = fields["password"] ?? ""
            let result: Result<User, SelfAssertedProblem>
            if purpose == .signUp {
                var attributes: [String: String] = [:]
                for name in settings.attributes { attributes[name] = fields[Self.attributeField(name)] ?? "" }
                result = flows.signUp(email: email, password: settings.signIn == .otp ? nil : password, attributes: attributes,
                                      tenant: tenant, directory: base.context.directory)
                if case .failure(let problem) = result {
                    return detailsPage(purpose, email: email, handle: handle, values: attributes, error: problem.message)
                }
            } else {
                result = flows.resetPassword(email: email, newPassword: password, tenant: tenant, directory: base.context.directory)
                if case .failure(let problem) = result {
                    return detailsPage(purpose, email: email, handle: handle, values: [:], error: problem.message)
                }
            }
            guard case .success(let user) = result else { preconditionFailure("failures returned above") }
            flows.spend(handle)
            return signInAndComplete(user, newUser: purpose == .signUp)
        }
    }

    /// The purpose a post names, when the tenant's pages offer it: sign-up, password reset in a password tenant,
    /// code sign-in in a code-only one (MFA codes are the native authentication API's). The actions that start a
    /// step name none.
    private func offeredPurpose(_ name: String, for action: Action) -> Outbox.Purpose? {
        switch action {
        case .signUp, .reset, .back: return .signIn
        case .email, .resend, .code, .details:
            switch Outbox.Purpose(rawValue: name) {
            case .signUp: return .signUp
            case .passwordReset where settings.signIn == .password: return .passwordReset
            case .signIn where settings.signIn == .otp && action != .details: return .signIn
            default: return nil
            }
        }
    }

    /// Why a code is not sent for `email`: not an address, sign-up refused, or no such account to sign in or reset.
    private func emailRefusal(_ email: String, purpose: Outbox.Purpose) -> String? {
        if purpose == .signUp { return flows.signUpRefusal(email: email, tenant: tenant, directory: base.context.directory)?.message }
        guard base.context.directory.user(email, in: tenant) != nil else {
            return "We couldn't find an account with that email address."
        }
        return nil
    }

    /// A user just signed up, reset or verified by code joins the browser session, and the client is answered.
    private func signInAndComplete(_ user: User, newUser: Bool) -> HTTPResponse {
        let now = provider.clock.now()
        let session = provider.sessions.add(SessionAccount(user, of: tenant, authTime: now), to: provider.sessions.forSignIn(base.sessionID))
        return base.proceed(user: user, tenant: tenant, authTime: now, sessionID: session, setSession: true)
    }

    // MARK: pages

    /// The form field of attribute `name`.
    static func attributeField(_ name: String) -> String { "mockidp_attr_" + name }

    private static func field(_ id: String, _ label: String, name: String? = nil, type: String = "text", value: String? = nil,
                              autocomplete: String = "off", required: Bool = true, readonly: Bool = false,
                              problem: String? = nil) -> [String: Any] {
        var field: [String: Any] = ["id": id, "name": name ?? id, "label": label, "type": type, "value": value ?? "",
                                    "autocomplete": autocomplete, "required": required, "readonly": readonly]
        if let problem { field["problem"] = problem }
        return field
    }

    private func page(step: String, heading: String, intro: String?, submit: Action, submitLabel: String, fields: [[String: Any]],
                      error: String?, links: [(text: String, label: String, action: Action, id: String)] = [],
                      hidden: [(name: String, value: String)] = []) -> HTTPResponse {
        var values: [String: Any] = ["tenantName": tenant.displayName, "appName": validated.client.displayName, "step": step,
                                     "heading": heading, "submitAction": submit.rawValue, "submitLabel": submitLabel, "fields": fields]
        if let intro { values["intro"] = intro }
        if let error { values["error"] = error }
        values["links"] = links.map { ["text": $0.text, "label": $0.label, "linkAction": $0.action.rawValue, "id": $0.id] as [String: Any] }
        return base.page("externalid", values, extraHidden: hidden)
    }

    private func emailPage(_ purpose: Outbox.Purpose, email: String?, error: String?) -> HTTPResponse {
        let hidden = [("mockidp_eid_purpose", purpose.rawValue)]
        let emailField = Self.field("email", "Email", type: "email", value: email, autocomplete: "email")
        switch purpose {
        case .signUp:
            return page(step: "signup-email", heading: "Create account", intro: "Enter your email address to create an account for \(validated.client.displayName).",
                        submit: .email, submitLabel: "Next", fields: [emailField], error: error,
                        links: [("Already have an account?", "Sign in", .back, "signin")], hidden: hidden)
        case .passwordReset:
            return page(step: "reset-email", heading: "Reset your password", intro: "Enter the email address of your account. We'll send you a code.",
                        submit: .email, submitLabel: "Next", fields: [emailField], error: error,
                        links: [("Remembered it?", "Sign in", .back, "signin")], hidden: hidden)
        case .signIn, .mfa:
            var links: [(text: String, label: String, action: Action, id: String)] = []
            if settings.signUp { links.append(("No account?", "Create one", .signUp, "signup")) }
            return page(step: "signin-email", heading: "Sign in", intro: "to continue to \(validated.client.displayName)",
                        submit: .email, submitLabel: "Next", fields: [emailField], error: error, links: links, hidden: hidden)
        }
    }

    private func codePage(_ purpose: Outbox.Purpose, email: String, handle: String, error: String?) -> HTTPResponse {
        page(step: "code", heading: "Verify your email", intro: "Enter the code we sent to \(email).",
             submit: .code, submitLabel: purpose == .signIn ? "Sign in" : "Next",
             fields: [Self.field("code", "Enter code", type: "text", autocomplete: "one-time-code")], error: error,
             links: [("Didn't get it?", "Send a new code", .resend, "resend")],
             hidden: [("mockidp_eid_purpose", purpose.rawValue), ("mockidp_eid_flow", handle), ("email", email)])
    }

    private func detailsPage(_ purpose: Outbox.Purpose, email: String, handle: String, values: [String: String],
                             error: String?) -> HTTPResponse {
        let hidden = [("mockidp_eid_purpose", purpose.rawValue), ("mockidp_eid_flow", handle), ("email", email)]
        guard purpose == .signUp else {
            return page(step: "reset-password", heading: "Reset your password", intro: email, submit: .details, submitLabel: "Reset password",
                        fields: [Self.field("password", "New password", type: "password", autocomplete: "new-password")],
                        error: error, hidden: hidden)
        }
        var fields: [[String: Any]] = []
        if settings.signIn == .password {
            fields.append(Self.field("password", "Password", type: "password", autocomplete: "new-password"))
        }
        let problems = Dictionary(flows.attributeProblems(values, tenant: tenant).map { ($0.attribute, $0.message) },
                                  uniquingKeysWith: { a, _ in a })
        for name in settings.attributes {
            var field = Self.field(name, Self.label(of: name), name: Self.attributeField(name), value: values[name],
                                   problem: values.isEmpty ? nil : problems[name])
            field["maxLength"] = SignUpAttribute.maximumLength
            fields.append(field)
        }
        return page(step: "signup-details", heading: "Create account", intro: email, submit: .details, submitLabel: "Create",
                    fields: fields, error: error, hidden: hidden)
    }

    /// The label External ID's page shows for an attribute.
    private static func label(of attribute: String) -> String {
        switch attribute {
        case "displayName": "Display Name"
        case "givenName": "Given Name"
        case "surname": "Surname"
        case "jobTitle": "Job Title"
        case "streetAddress": "Street Address"
        case "city": "City"
        case "state": "State / Province"
        case "postalCode": "Postal Code"
        case "country": "Country / Region"
        default: String(attribute.split(separator: "_").last ?? Substring(attribute))
        }
    }
}
