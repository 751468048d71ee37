import MockIDPCore
import MockIDPHTTP
import MockIDPJOSE

/// One authorize request's way through the browser: use the session, or show the sign-in, account-picker or
/// consent page, then answer the client (docs/entra-behaviour.md, "Sign-in decisions", for `prompt`).
struct SignInFlow {
    let handlers: EndpointHandlers
    let request: HTTPRequest
    let context: RequestScope
    let validated: ValidatedAuthorization
    /// The protocol parameters, carried through the pages as hidden fields and checked again on every post.
    let hidden: [(name: String, value: String)]
    let cookies: [String: String]

    var provider: IdentityProvider { handlers.provider }
    var sessionID: String? { cookies[EndpointHandlers.sessionCookie] }

    /// Session accounts that may answer this request: matching `login_hint` when given, and fresh enough for `max_age`.
    var usableAccounts: [SessionEntry] { provider.signIn.usableSessionAccounts(validated, sessionID: sessionID, directory: context.directory) }

    /// A request arriving from the client: Core's interaction decision, as a page or a response.
    func start() -> HTTPResponse {
        switch provider.signIn.interaction(for: validated, sessionID: sessionID, hostScope: context.hostScope, directory: context.directory) {
        case .answer(let entry):
            return proceed(user: entry.user, tenant: entry.tenant, authTime: entry.account.authTime, sessionID: sessionID)
        case .headlessSignIn(let user, let tenant):
            let now = provider.clock.now()
            let session = provider.sessions.add(SessionAccount(user, of: tenant, authTime: now), to: provider.sessions.forSignIn(sessionID))
            return proceed(user: user, tenant: tenant, authTime: now, sessionID: session, setSession: true)
        case .loginRequired:
            return handlers.deliverError(.loginRequired(), state: validated.state, to: validated.redirectURI, mode: validated.responseMode, context: context)
        case .signInPage(let username, let offerSessionAccounts):
            return signInPage(username: username, error: nil, offerSessionAccounts: offerSessionAccounts)
        case .consentPage(let entry):
            return consentPage(for: entry.user, tenant: entry.tenant)
        }
    }

    /// A post from one of this server's pages (its form token already checked).
    func submit(action: String, fields: [String: String]) -> HTTPResponse {
        switch action {
        case "signin":
            let username = fields["username"] ?? ""
            // The claims field of a tenant that makes users on the fly (`UsersOnTheFly`).
            var claims: ClaimSet?
            if let typed = fields["mockidp_claims"], !anyUserTenants.isEmpty {
                switch UsersOnTheFly.signInClaims(json: typed) {
                case .success(let parsed): claims = parsed
                case .failure(let problem):
                    handlers.logger.debug("sign-in page: the claims \(problem)")
                    return signInPage(username: username, error: "The claims \(problem).", offerSessionAccounts: false, claims: typed)
                }
            }
            switch provider.signIn.verifyPassword(username: username, password: fields["password"] ?? "", tenantSegment: validated.tenantSegment,
                                           claims: claims, directory: context.directory) {
            case .failure(let error):
                handlers.logger.debug("sign-in page: \(error.reason)")
                let message = error.aadsts == 50126 ? "Your account or password is incorrect. If you don't remember your password, reset it now."
                    : error.aadsts == 90023 ? "The claims are for users made on the fly: \(username) is configured, and the configuration sets its claims."
                    : "This username may be incorrect. Make sure you typed it correctly. Otherwise, contact your admin."
                return signInPage(username: username, error: message, offerSessionAccounts: false, claims: fields["mockidp_claims"])
            case .success(let (user, tenant)):
                let now = provider.clock.now()
                let session = provider.sessions.add(SessionAccount(user, of: tenant, authTime: now), to: provider.sessions.forSignIn(sessionID))
                return proceed(user: user, tenant: tenant, authTime: now, sessionID: session, setSession: true)
            }
        case "pick":
            let username = (fields["username"] ?? "").lowercased()
            if validated.prompt != .login, let entry = usableAccounts.first(where: { $0.account.username.lowercased() == username }) {
                return proceed(user: entry.user, tenant: entry.tenant, authTime: entry.account.authTime, sessionID: sessionID)
            }
            return signInPage(username: fields["username"], error: nil, offerSessionAccounts: false)
        case "consent":
            guard fields["consent"] == "accept" else {
                return handlers.deliverError(.consentDeclined(), state: validated.state, to: validated.redirectURI, mode: validated.responseMode, context: context)
            }
            let username = (fields["mockidp_account"] ?? "").lowercased()
            guard let entry = provider.signIn.sessionAccounts(sessionID, tenantSegment: validated.tenantSegment, directory: context.directory)
                .first(where: { $0.account.username.lowercased() == username }) else {
                return signInPage(username: fields["mockidp_account"], error: nil, offerSessionAccounts: false)
            }
            // Accepting grants everything the request asked for; scopes granted before stay (docs/sign-in.md, "Consent").
            if let asked = provider.consentPolicy.askedPermissions(validated, tenant: entry.tenant, context: context) {
                provider.consents.grant(asked, client: validated.client, user: entry.user, tenant: entry.tenant)
            }
            return complete(user: entry.user, tenant: entry.tenant, authTime: entry.account.authTime, sessionID: sessionID)
        default:
            return handlers.errorPage(.invalidParameter("mockidp_action", "is not one this server's pages send"), context: context)
        }
    }

    /// The user is known: the consent page when there is something to ask (`prompt=consent`, or an app with
    /// `consentRequired` asking for permissions the user has not consented to), else the answer. `prompt=none`
    /// cannot show the page: `consent_required` (AADSTS65001) goes to the redirect URI.
    func proceed(user: User, tenant: Tenant, authTime: Int, sessionID: String?, setSession: Bool = false) -> HTTPResponse {
        let ask = provider.consentPolicy.consentToAsk(validated, user: user, tenant: tenant, context: context)
        guard !ask.isEmpty || validated.prompt == .consent else {
            return complete(user: user, tenant: tenant, authTime: authTime, sessionID: sessionID, setSession: setSession)
        }
        if validated.prompt == Prompt.none {
            return handlers.deliverError(.consentRequiredSilently(client: validated.client, scopes: ask.map(\.scope)), state: validated.state,
                                         to: validated.redirectURI, mode: validated.responseMode, context: context)
        }
        return consentPage(for: user, tenant: tenant, permissions: ask, newSession: setSession ? sessionID : nil)
    }

    /// Issues the response (code, client_info, state, session_state) and sends it in the requested mode.
    func complete(user: User, tenant: Tenant, authTime: Int, sessionID: String?, setSession: Bool = false,
                  newUser: Bool = false) -> HTTPResponse {
        var session = provider.sessions.forSignIn(sessionID)
        // A session that ended between the page and this answer: the user joins a new one.
        if session != sessionID { session = provider.sessions.add(SessionAccount(user, of: tenant, authTime: authTime), to: session) }
        let parameters: [(name: String, value: String)]
        switch provider.authorizeEndpoint.authorize(validated, user: user, tenant: tenant, authTime: authTime,
                                  sessionID: provider.sessions.state(of: session), newUser: newUser, context: context) {
        case .success(let p): parameters = p
        case .failure(let error):
            return handlers.deliverError(error, state: validated.state, to: validated.redirectURI, mode: validated.responseMode, context: context)
        }
        var cookies: [HTTPCookie] = []
        if setSession || session != sessionID {
            cookies.append(handlers.cookie(EndpointHandlers.sessionCookie, session, request: request))
        }
        return handlers.deliver(parameters, to: validated.redirectURI, mode: validated.responseMode, cookies: cookies, context: context)
    }

    // MARK: pages

    private var action: String { request.path }

    func page(_ template: String, _ context: [String: Any], extraHidden: [(name: String, value: String)] = [],
                      newSession: String? = nil) -> HTTPResponse {
        // form_post delivers to the redirect URI from a page of ours; the policy must allow that target.
        let formTarget = validated.redirectURI.hasPrefix("http") ? validated.redirectURI : ""
        return handlers.page(template, context, hidden: hidden + extraHidden, request: request, cookies: cookies,
                             formActionSources: formTarget, newSession: newSession)
    }

    /// The tenants this page makes users on the fly for.
    var anyUserTenants: [Tenant] { provider.usersOnTheFly.tenantsMakingUsers(tenantSegment: validated.tenantSegment, hostScope: context.hostScope, directory: context.directory) }

    func signInPage(username: String?, error: String?, offerSessionAccounts: Bool, claims: String? = nil) -> HTTPResponse {
        let signedIn = Set(provider.signIn.sessionAccounts(sessionID, tenantSegment: validated.tenantSegment, directory: context.directory).map { $0.account.username.lowercased() })
        var tiles: [[String: Any]] = []
        for (index, entry) in provider.signIn.pickableUsers(tenantSegment: validated.tenantSegment, hostScope: self.context.hostScope, directory: context.directory).enumerated() {
            let isSignedIn = signedIn.contains(entry.user.username.lowercased())
            if !offerSessionAccounts, !isSignedIn, validated.prompt == .login { continue }
            tiles.append(["index": index, "username": entry.user.username, "name": entry.user.name ?? entry.user.username,
                          "signedIn": isSignedIn && offerSessionAccounts])
        }
        var context: [String: Any] = [
            "tenantName": validated.tenant?.displayName ?? "Microsoft", "appName": validated.client.displayName,
            "accounts": tiles, "hasAccounts": !tiles.isEmpty,
        ]
        if let username { context["username"] = username }
        if let error { context["error"] = error }
        // External ID's sign-in page offers sign-up and password reset.
        if case .externalID(let tenant) = self.context.dialect {
            context["offersReset"] = true
            context["offersSignUp"] = tenant.externalID?.signUp ?? false
        }
        let domains = anyUserTenants.flatMap(\.domains)
        if !domains.isEmpty {
            context["anyUserDomains"] = domains.joined(separator: ", ")
            if let claims { context["claims"] = claims }
        }
        return page("signin", context)
    }

    /// The consent page: `permissions` in words, or for `prompt=consent` everything the request asks for.
    func consentPage(for user: User, tenant: Tenant, permissions: [DelegatedPermission]? = nil, newSession: String? = nil) -> HTTPResponse {
        let shown = permissions ?? provider.consentPolicy.consentToAsk(validated, user: user, tenant: tenant, context: context)
        return page("consent", handlers.consentValues(user: user, client: validated.client, permissions: shown, tenant: tenant, context: context),
                    extraHidden: [("mockidp_account", user.username)], newSession: newSession)
    }
}
