import MockIDPCore
import MockIDPHTTP

/// The device code flow over HTTP: the device authorization endpoint and the `/devicelogin` page where the user
/// enters the code and signs in (RFC 8628; docs/entra-behaviour.md, "Grants").
extension EndpointHandlers {
    func deviceCode(_ request: HTTPRequest, tenant: String, version: ProtocolVersion, context: RequestScope) throws(OAuthError) -> HTTPResponse {
        guard request.method == "POST" else { throw .tokenEndpointRequiresPOST(method: request.method) }
        let parameters: [(name: String, value: String)]
        do { parameters = try URLEncodedForm.decode(request.body) } catch {
            throw .malformedRequest(error.description)
        }
        return try json(provider.deviceFlow.deviceAuthorization(tenant: tenant, parameters: parameters, version: version, context: context))
    }

    func deviceLogin(_ request: HTTPRequest, context: RequestScope) throws(OAuthError) -> HTTPResponse {
        let cookies = Dictionary(HTTPCookie.parse(cookieHeader: request.headers["Cookie"] ?? ""), uniquingKeysWith: { a, _ in a })
        guard request.method == "POST" else {
            return page("devicecode", ["userCode": request.queryValue("otc") ?? ""], hidden: [], request: request, cookies: cookies)
        }
        let fields: [String: String]
        do { fields = Dictionary(try URLEncodedForm.decode(request.body), uniquingKeysWith: { a, _ in a }) } catch {
            throw .malformedRequest(error.description)
        }
        guard let token = fields["mockidp_form_token"], token == cookies[Self.formCookie] else {
            throw .formTokenMismatch()
        }
        guard let pending = provider.deviceFlow.deviceLogin(userCode: fields["user_code"] ?? "", directory: context.directory) else {
            return page("devicecode", ["error": "That code didn't work. Check the code and try again."], hidden: [],
                        request: request, cookies: cookies)
        }
        let session = cookies[Self.sessionCookie]
        func signInPage(_ username: String?, error: String?) -> HTTPResponse {
            let accounts = provider.signIn.sessionAccounts(session, tenantSegment: pending.tenantSegment, directory: context.directory)
            var tiles: [[String: Any]] = []
            for (i, entry) in accounts.enumerated() {
                tiles.append(["index": i, "username": entry.user.username, "name": entry.user.name ?? entry.user.username, "signedIn": true])
            }
            var values: [String: Any] = ["tenantName": "Device sign-in", "appName": pending.client.displayName,
                                         "accounts": tiles, "hasAccounts": !tiles.isEmpty, "canDecline": true]
            if let username { values["username"] = username }
            if let error { values["error"] = error }
            return page("signin", values, hidden: [("user_code", pending.userCode)], request: request, cookies: cookies)
        }
        // An app with `consentRequired`: the consent page comes between sign-in and the device's answer, as in the
        // browser flow (docs/sign-in.md, "Consent").
        func proceed(_ user: User, _ tenant: Tenant, newSession: String?) -> HTTPResponse {
            let ask = provider.consentPolicy.consentToAsk(client: pending.client, scope: pending.scope, user: user, tenant: tenant, context: context)
            guard !ask.isEmpty else { return done(user, tenant, newSession: newSession) }
            return page("consent", consentValues(user: user, client: pending.client, permissions: ask, tenant: tenant, context: context),
                        hidden: [("user_code", pending.userCode), ("mockidp_account", user.username)], request: request, cookies: cookies,
                        newSession: newSession)
        }
        func decline() -> HTTPResponse {
            provider.deviceFlow.completeDeviceLogin(userCode: pending.userCode, user: nil, tenant: nil)
            return HTTPResponse.html(pages.render("message", [
                "title": "Sign-in declined", "message": "You declined to sign in to \(pending.client.displayName) on your device.",
            ]))
        }
        func done(_ user: User, _ tenant: Tenant, newSession: String?) -> HTTPResponse {
            provider.deviceFlow.completeDeviceLogin(userCode: pending.userCode, user: user, tenant: tenant)
            var r = HTTPResponse.html(pages.render("message", [
                "title": pending.client.displayName,
                "message": "You have signed in to the \(pending.client.displayName) application on your device. You may now close this window.",
            ]))
            if let newSession { r.headers.add("Set-Cookie", cookie(Self.sessionCookie, newSession, request: request).setCookieHeaderValue) }
            return r
        }
        switch fields["mockidp_action"] {
        case "signin":
            switch provider.signIn.verifyPassword(username: fields["username"] ?? "", password: fields["password"] ?? "",
                                           tenantSegment: pending.tenantSegment, directory: context.directory) {
            case .failure(let error):
                logger.debug("device sign-in page: \(error.reason)")
                return signInPage(fields["username"], error: "Your account or password is incorrect.")
            case .success(let (user, tenant)):
                let id = provider.sessions.add(SessionAccount(user, of: tenant, authTime: provider.clock.now()), to: provider.sessions.forSignIn(session))
                return proceed(user, tenant, newSession: id == session ? nil : id)
            }
        case "pick":
            let username = (fields["username"] ?? "").lowercased()
            if let entry = provider.signIn.sessionAccounts(session, tenantSegment: pending.tenantSegment, directory: context.directory)
                .first(where: { $0.account.username.lowercased() == username }) {
                return proceed(entry.user, entry.tenant, newSession: nil)
            }
            return signInPage(fields["username"], error: nil)
        case "decline":
            return decline()
        case "consent":
            guard fields["consent"] == "accept" else { return decline() }
            let username = (fields["mockidp_account"] ?? "").lowercased()
            guard let entry = provider.signIn.sessionAccounts(session, tenantSegment: pending.tenantSegment, directory: context.directory)
                .first(where: { $0.account.username.lowercased() == username }) else { return signInPage(fields["mockidp_account"], error: nil) }
            if let asked = provider.consentPolicy.askedPermissions(client: pending.client, scope: pending.scope, tenant: entry.tenant, context: context) {
                provider.consents.grant(asked, client: pending.client, user: entry.user, tenant: entry.tenant)
            }
            return done(entry.user, entry.tenant, newSession: nil)
        default:
            return signInPage(nil, error: nil)
        }
    }
}
