import MockIDPCore
import MockIDPHTTP
import MockIDPJOSE

/// One authorize request's way through the browser: use the session, or show the sign-in, account-picker or
/// consent page, then answer the client (reference/entra-protocol.md §7.4 for `prompt`).
struct SignInFlow {
    let handlers: EndpointHandlers
    let request: HTTPRequest
    let context: RequestContext
    let validated: ValidatedAuthorization
    /// The protocol parameters, carried through the pages as hidden fields and checked again on every post.
    let hidden: [(name: String, value: String)]
    let cookies: [String: String]

    var provider: IdentityProvider { handlers.provider }
    var sessionID: String? { cookies[EndpointHandlers.sessionCookie] }

    /// Session accounts that may answer this request: matching `login_hint` when given, and fresh enough for `max_age`.
    var usableAccounts: [SessionEntry] { provider.usableSessionAccounts(validated, sessionID: sessionID) }

    /// A request arriving from the client: Core's interaction decision, as a page or a response.
    func start() -> HTTPResponse {
        switch provider.interaction(for: validated, sessionID: sessionID, hostScope: context.hostScope) {
        case .answer(let entry):
            return complete(user: entry.user, tenant: entry.tenant, authTime: entry.account.authTime, sessionID: sessionID)
        case .headlessSignIn(let user, let tenant):
            let now = provider.clock.now()
            let session = provider.addToSession(provider.sessionForSignIn(sessionID), user: user, tenant: tenant, authTime: now)
            return complete(user: user, tenant: tenant, authTime: now, sessionID: session, setSession: true)
        case .loginRequired:
            return handlers.deliverError(.loginRequired(), state: validated.state, to: validated.redirectURI, mode: validated.responseMode, context: context)
        case .signInPage(let username, let offerSessionAccounts):
            return signInPage(username: username, error: nil, offerSessionAccounts: offerSessionAccounts)
        case .consentPage(let entry):
            return consentPage(for: entry.user)
        }
    }

    /// A post from one of this server's pages (its form token already checked).
    func submit(action: String, fields: [String: String]) -> HTTPResponse {
        switch action {
        case "signin":
            let username = fields["username"] ?? ""
            // The claims field of a tenant that makes users on the fly (IdentityProvider+AnyUser).
            var claims: ClaimSet?
            if let typed = fields["mockidp_claims"], !anyUserTenants.isEmpty {
                switch IdentityProvider.signInClaims(json: typed) {
                case .success(let parsed): claims = parsed
                case .failure(let problem):
                    handlers.logger.debug("sign-in page: the claims \(problem)")
                    return signInPage(username: username, error: "The claims \(problem).", offerSessionAccounts: false, claims: typed)
                }
            }
            switch provider.verifyPassword(username: username, password: fields["password"] ?? "", tenantSegment: validated.tenantSegment,
                                           claims: claims) {
            case .failure(let error):
                handlers.logger.debug("sign-in page: \(error.reason)")
                let message = error.aadsts == 50126 ? "Your account or password is incorrect. If you don't remember your password, reset it now."
                    : error.aadsts == 90023 ? "The claims are for users made on the fly: \(username) is configured, and the configuration sets its claims."
                    : "This username may be incorrect. Make sure you typed it correctly. Otherwise, contact your admin."
                return signInPage(username: username, error: message, offerSessionAccounts: false, claims: fields["mockidp_claims"])
            case .success(let (user, tenant)):
                let now = provider.clock.now()
                let session = provider.addToSession(provider.sessionForSignIn(sessionID), user: user, tenant: tenant, authTime: now)
                if validated.prompt == .consent { return consentPage(for: user, newSession: session) }
                return complete(user: user, tenant: tenant, authTime: now, sessionID: session, setSession: true)
            }
        case "pick":
            let username = (fields["username"] ?? "").lowercased()
            if validated.prompt != .login, let entry = usableAccounts.first(where: { $0.account.username.lowercased() == username }) {
                if validated.prompt == .consent { return consentPage(for: entry.user) }
                return complete(user: entry.user, tenant: entry.tenant, authTime: entry.account.authTime, sessionID: sessionID)
            }
            return signInPage(username: fields["username"], error: nil, offerSessionAccounts: false)
        case "consent":
            guard fields["consent"] == "accept" else {
                return handlers.deliverError(.consentDeclined(), state: validated.state, to: validated.redirectURI, mode: validated.responseMode, context: context)
            }
            let username = (fields["mockidp_account"] ?? "").lowercased()
            guard let entry = provider.sessionAccounts(sessionID, tenantSegment: validated.tenantSegment)
                .first(where: { $0.account.username.lowercased() == username }) else {
                return signInPage(username: fields["mockidp_account"], error: nil, offerSessionAccounts: false)
            }
            return complete(user: entry.user, tenant: entry.tenant, authTime: entry.account.authTime, sessionID: sessionID)
        default:
            return handlers.errorPage(.invalidParameter("mockidp_action", "is not one this server's pages send"), context: context)
        }
    }

    /// Issues the response (code, client_info, state, session_state) and sends it in the requested mode.
    func complete(user: User, tenant: Tenant, authTime: Int, sessionID: String?, setSession: Bool = false,
                  newUser: Bool = false) -> HTTPResponse {
        var session = provider.sessionForSignIn(sessionID)
        // A session that ended between the page and this answer: the user joins a new one.
        if session != sessionID { session = provider.addToSession(session, user: user, tenant: tenant, authTime: authTime) }
        let parameters: [(name: String, value: String)]
        switch provider.authorize(validated, user: user, tenant: tenant, authTime: authTime,
                                  sessionID: provider.sessionState(session), newUser: newUser, context: context) {
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
    var anyUserTenants: [Tenant] { provider.tenantsMakingUsers(tenantSegment: validated.tenantSegment, hostScope: context.hostScope) }

    func signInPage(username: String?, error: String?, offerSessionAccounts: Bool, claims: String? = nil) -> HTTPResponse {
        let signedIn = Set(provider.sessionAccounts(sessionID, tenantSegment: validated.tenantSegment).map { $0.account.username.lowercased() })
        var tiles: [[String: Any]] = []
        for (index, entry) in provider.pickableUsers(tenantSegment: validated.tenantSegment, hostScope: self.context.hostScope).enumerated() {
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
        let domains = anyUserTenants.flatMap(\.domains)
        if !domains.isEmpty {
            context["anyUserDomains"] = domains.joined(separator: ", ")
            if let claims { context["claims"] = claims }
        }
        return page("signin", context)
    }

    func consentPage(for user: User, newSession: String? = nil) -> HTTPResponse {
        let scopes = validated.scope.split(separator: " ").map(String.init)
        return page("consent", ["username": user.username, "appName": validated.client.displayName, "scopes": scopes],
                    extraHidden: [("mockidp_account", user.username)], newSession: newSession)
    }
}
