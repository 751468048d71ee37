import MockIDPCore
import MockIDPHTTP
import MockIDPJOSE

/// SAML sign-on over HTTP (docs/saml.md, "Sign-on"): `/{tenant}/saml2` takes an `AuthnRequest` over the HTTP-Redirect
/// binding (GET) or the HTTP-POST binding (POST), or `?appid=` for IdP-initiated sign-on (a `LogoutRequest`: "Single logout"), and the user signs in on the ordinary sign-in page with the browser
/// session OpenID Connect uses; an auto-submitting form then posts `SAMLResponse` and `RelayState` to the service
/// provider. The pages post back here with the checked sign-on's key (`mockidp_saml`), kept by Core meanwhile.
extension EndpointHandlers {
    /// The field naming the pending sign-on on this server's pages.
    static let samlSignOnField = "mockidp_saml"

    func saml2(_ request: HTTPRequest, tenant: String, context: RequestScope) throws(OAuthError) -> HTTPResponse {
        guard request.method == "GET" || request.method == "POST" else {
            return HTTPResponse(status: .methodNotAllowed, headers: ["Allow": "GET, POST"])
        }
        var parameters = request.query
        if request.method == "POST" {
            do { parameters = try URLEncodedForm.decode(request.body) } catch { throw .malformedRequest(error.description) }
        }
        let value = { (name: String) in parameters.first { $0.name == name }?.value }
        let cookies = Self.requestCookies(request)
        if let resumed = try resumeSAMLSignOn(request, value: value, cookies: cookies, context: context) { return resumed }
        let check: SAMLRequestCheck
        if let samlRequest = value("SAMLRequest") {
            check = provider.saml.check(Self.samlMessage(request, samlRequest: samlRequest, relayState: value("RelayState"), value: value),
                                        tenant: tenant, context: context)
        } else if request.method == "GET", let appID = value("appid"), !appID.isEmpty {
            check = provider.saml.idpInitiated(appID: appID, relayState: value("RelayState"), tenant: tenant, context: context)
        } else {
            throw .samlMessageMissing()
        }
        return try answerSAMLCheck(check, request: request, cookies: cookies, context: context)
    }

    /// The request's cookies by name, the first of each.
    static func requestCookies(_ request: HTTPRequest) -> [String: String] {
        Dictionary(HTTPCookie.parse(cookieHeader: request.headers["Cookie"] ?? ""), uniquingKeysWith: { a, _ in a })
    }

    /// A post from the sign-in page (SAML or WS-Federation): the sign-on checked when the request came goes on; nil
    /// when the request is no such post.
    func resumeSAMLSignOn(_ request: HTTPRequest, value: (String) -> String?, cookies: [String: String],
                          context: RequestScope) throws(OAuthError) -> HTTPResponse? {
        guard let key = value(Self.samlSignOnField), let action = value("mockidp_action") else { return nil }
        guard let token = value("mockidp_form_token"), let expected = cookies[Self.formCookie], token == expected else {
            throw .formTokenMismatch()
        }
        guard let signOn = provider.saml.pending(key) else { throw .samlMessageUnreadable("the sign-in took too long; start again from the application") }
        let flow = SAMLSignInFlow(handlers: self, request: request, context: context, signOn: signOn, key: key, cookies: cookies)
        return flow.submit(action: action, username: value("username") ?? "", password: value("password") ?? "")
    }

    /// A checked SAML or WS-Federation request answered: refused on the error page, answered at once, or the user
    /// signs in.
    func answerSAMLCheck(_ check: SAMLRequestCheck, request: HTTPRequest, cookies: [String: String],
                         context: RequestScope) throws(OAuthError) -> HTTPResponse {
        switch check {
        case .errorPage(let error):
            throw error
        case .answer(let delivery):
            return deliver(delivery.fields, to: delivery.url, mode: .formPost, context: context)
        case .signIn(let signOn):
            let key = provider.saml.keep(signOn)
            return SAMLSignInFlow(handlers: self, request: request, context: context, signOn: signOn, key: key, cookies: cookies).start()
        case .signOut(let location):
            return samlSignedOut(request, location: location, context: context)
        }
    }

    /// The message of a request: over HTTP-Redirect (GET) with its query signature's parts, or over HTTP-POST.
    static func samlMessage(_ request: HTTPRequest, samlRequest: String, relayState: String?, value: (String) -> String?) -> SAMLMessage {
        let binding: SAMLMessage.Binding = request.method == "GET"
            ? .redirect(signedText: redirectSignedText(request), sigAlg: value("SigAlg"), signature: value("Signature"))
            : .post
        return SAMLMessage(samlRequest: samlRequest, relayState: relayState, binding: binding)
    }

    /// The text an HTTP-Redirect signature covers: the `SAMLRequest`, `RelayState` and `SigAlg` parameters exactly as
    /// sent, in that order (https://docs.oasis-open.org/security/saml/v2.0/saml-bindings-2.0-os.pdf, section 3.4.4.1).
    static func redirectSignedText(_ request: HTTPRequest) -> String? {
        guard let query = request.rawQuery else { return nil }
        var raw: [String: Substring] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if let name = parts.first, raw[String(name)] == nil { raw[String(name)] = parts.count > 1 ? parts[1] : "" }
        }
        guard let message = raw["SAMLRequest"], let sigAlg = raw["SigAlg"] else { return nil }
        var text = "SAMLRequest=" + message
        if let relayState = raw["RelayState"] { text += "&RelayState=" + relayState }
        return text + "&SigAlg=" + sigAlg
    }
}

/// One SAML sign-on's way through the browser: the session's account, or the sign-in page, then the Response.
struct SAMLSignInFlow {
    let handlers: EndpointHandlers
    let request: HTTPRequest
    let context: RequestScope
    let signOn: SAMLSignOn
    /// The pending sign-on's key, carried by the pages.
    let key: String
    let cookies: [String: String]

    var provider: IdentityProvider { handlers.provider }
    var sessionID: String? { cookies[EndpointHandlers.sessionCookie] }

    /// A checked request arriving: the session answers, or the page is shown, or `NoPassive`.
    func start() -> HTTPResponse {
        switch provider.saml.interaction(for: signOn, sessionID: sessionID, directory: context.directory) {
        case .answer(let entry):
            return complete(user: entry.user, tenant: entry.tenant, authTime: entry.account.authTime, setSession: false)
        case .signInPage(let offer):
            return signInPage(username: nil, error: nil, offerSessionAccounts: offer)
        case .noPassive:
            provider.saml.finish(key)
            switch provider.saml.noPassive(signOn, context: context) {
            case .answer(let delivery): return handlers.deliver(delivery.fields, to: delivery.url, mode: .formPost, context: context)
            case .errorPage(let error): return handlers.errorPage(error, context: context)
            case .signIn, .signOut: return handlers.errorPage(.samlSigningFailed("a NoPassive answer cannot sign in"), context: context)
            }
        }
    }

    /// A post from the sign-in page.
    func submit(action: String, username: String, password: String) -> HTTPResponse {
        switch action {
        case "signin":
            switch provider.signIn.verifyPassword(username: username, password: password, tenantSegment: signOn.tenantID,
                                                  directory: context.directory) {
            case .failure(let error):
                handlers.logger.debug("SAML sign-in page: \(error.reason)")
                let message = error.aadsts == 50126 ? "Your account or password is incorrect. If you don't remember your password, reset it now."
                    : "This username may be incorrect. Make sure you typed it correctly. Otherwise, contact your admin."
                return signInPage(username: username, error: message, offerSessionAccounts: false)
            case .success(let (user, tenant)):
                return complete(user: user, tenant: tenant, authTime: provider.clock.now(), setSession: true)
            }
        case "pick":
            let wanted = username.lowercased()
            if !signOn.forceAuthn,
               let entry = provider.signIn.sessionAccounts(sessionID, tenantSegment: signOn.tenantID, directory: context.directory)
                   .first(where: { $0.account.username.lowercased() == wanted }) {
                return complete(user: entry.user, tenant: entry.tenant, authTime: entry.account.authTime, setSession: false)
            }
            return signInPage(username: username, error: nil, offerSessionAccounts: false)
        default:
            return handlers.errorPage(.invalidParameter("mockidp_action", "is not one this server's pages send"), context: context)
        }
    }

    /// The user is known: the session keeps them (a password just typed starts or joins one), and the Response is
    /// posted to the service provider.
    func complete(user: User, tenant: Tenant, authTime: Int, setSession: Bool) -> HTTPResponse {
        var sessionCookies: [HTTPCookie] = []
        if setSession {
            let session = provider.sessions.add(SessionAccount(user, of: tenant, authTime: authTime), to: provider.sessions.forSignIn(sessionID))
            sessionCookies.append(handlers.cookie(EndpointHandlers.sessionCookie, session, request: request))
        }
        provider.saml.finish(key)
        switch provider.saml.response(signOn, user: user, tenant: tenant, authTime: authTime, context: context) {
        case .success(let delivery):
            return handlers.deliver(delivery.fields, to: delivery.url, mode: .formPost, cookies: sessionCookies, context: context)
        case .failure(let error):
            return handlers.errorPage(error, context: context)
        }
    }

    /// The ordinary sign-in page, posting back here with the sign-on's key.
    func signInPage(username: String?, error: String?, offerSessionAccounts: Bool) -> HTTPResponse {
        let directory = context.directory
        let names = provider.saml.displayNames(signOn, directory: directory)
        let signedIn = Set(provider.signIn.sessionAccounts(sessionID, tenantSegment: signOn.tenantID, directory: directory)
            .map { $0.account.username.lowercased() })
        var tiles: [[String: Any]] = []
        if offerSessionAccounts {
            for (index, entry) in provider.signIn.pickableUsers(tenantSegment: signOn.tenantID, directory: directory).enumerated()
            where signedIn.contains(entry.user.username.lowercased()) {
                tiles.append(["index": index, "username": entry.user.username, "name": entry.user.name ?? entry.user.username, "signedIn": true])
            }
        }
        var values: [String: Any] = [
            "tenantName": names.tenant, "appName": names.app,
            "accounts": tiles, "hasAccounts": !tiles.isEmpty,
        ]
        if let username { values["username"] = username }
        if let error { values["error"] = error }
        let target = RedirectURI.formActionSource(signOn.assertionConsumerServiceURL) ?? ""
        return handlers.page("signin", values, hidden: [(EndpointHandlers.samlSignOnField, key)], request: request, cookies: cookies,
                             formActionSources: target)
    }
}
