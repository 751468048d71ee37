import MockIDPCore
import MockIDPHTTP
import MockIDPJOSE

/// The authorize endpoint over HTTP: the sign-in, account-picker and consent pages, the browser session cookie, and
/// the response in the requested mode (docs/entra-behaviour.md, "Authorize requests").
extension EndpointHandlers {
    static let sessionCookie = "mockidp_session"
    static let formCookie = "mockidp_form"
    /// Form fields this server's own pages add; they never reach the protocol checks.
    static let pageFields: Set<String> = ["mockidp_action", "mockidp_form_token", "mockidp_account", "mockidp_claims", "username", "password", "consent",
                                          "email", "newPassword", "reenterPassword", "displayName", "givenName", "surname", "code"]

    func authorize(_ request: HTTPRequest, tenant: String, version: ProtocolVersion, context: RequestScope) throws(OAuthError) -> HTTPResponse {
        guard request.method == "GET" || request.method == "POST" else {
            return HTTPResponse(status: .methodNotAllowed, headers: ["Allow": "GET, POST"])
        }
        var parameters = request.query
        if request.method == "POST" {
            do { parameters = try URLEncodedForm.decode(request.body) } catch {
                throw .malformedRequest(error.description)
            }
        }
        // Fields named mockidp_… are the pages' own too (External ID's code handle and attributes).
        let isPageField = { (name: String) in Self.pageFields.contains(name) || name.hasPrefix("mockidp_") }
        let submitted = Dictionary(parameters.filter { isPageField($0.name) }, uniquingKeysWith: { a, _ in a })
        let protocolParameters = parameters.filter { !isPageField($0.name) }
        // The dialect (Entra, or a B2C user flow in any authority form) was resolved at the edge.
        let checked = AuthorizationRequest(tenant: tenant, version: version, parameters: protocolParameters)
        switch provider.authorizeEndpoint.checkAuthorization(checked, scope: context) {
        case .errorPage(let error):
            throw error
        case .redirectError(let error, let uri, let mode, let state):
            return deliverError(error, state: state, to: uri, mode: mode, context: context)
        case .signIn(let validated):
            let cookies = Dictionary(HTTPCookie.parse(cookieHeader: request.headers["Cookie"] ?? ""), uniquingKeysWith: { a, _ in a })
            let flow = SignInFlow(handlers: self, request: request, context: context, validated: validated,
                                  hidden: protocolParameters, cookies: cookies)
            // B2C's user flows and External ID's sign-up have their own pages.
            let b2cFlow = validated.b2c.map { _ in B2CSignInFlow(base: flow) }
            var externalIDFlow: ExternalIDSignInFlow?
            if case .externalID(let tenant) = context.dialect { externalIDFlow = ExternalIDSignInFlow(base: flow, tenant: tenant) }
            if let action = submitted["mockidp_action"] {
                guard let token = submitted["mockidp_form_token"], let expected = cookies[Self.formCookie], token == expected else {
                    throw .formTokenMismatch()
                }
                if let externalIDFlow, ExternalIDSignInFlow.handles(action) { return externalIDFlow.submit(action: action, fields: submitted) }
                return b2cFlow?.submit(action: action, fields: submitted) ?? flow.submit(action: action, fields: submitted)
            }
            return b2cFlow?.start() ?? externalIDFlow?.start() ?? flow.start()
        }
    }

    /// The longest `Location` a redirect to the client may have. A longer one (a huge `state` echoed back) would not fit
    /// in the connection's memory beside the request that brought it, and browsers and the client's own server refuse
    /// such URLs too; Entra answers AADSTS90015 on its page instead.
    static let maximumRedirectLength = 16 * 1024

    /// Sends the response to the client: a redirect with a query or fragment, or an auto-submitting form.
    func deliver(_ parameters: [(name: String, value: String)], to redirectURI: String, mode: ResponseMode,
                 cookies: [HTTPCookie] = [], context: RequestScope) -> HTTPResponse {
        // Core never verifies such a URI; should one get here all the same, no browser is sent to it.
        guard !RedirectURI.hasDangerousScheme(redirectURI) else {
            var refused = HTTPResponse(status: .badRequest, headers: ["Content-Type": "text/plain; charset=utf-8"],
                                       body: Array("This server never redirects to a javascript:, data:, vbscript: or file: URI.".utf8))
            refused.rejectionReason = "the redirect URI has a scheme a browser would run or read locally"
            return refused
        }
        var response: HTTPResponse
        switch mode {
        case .query, .fragment:
            let target = RedirectURI.responseTarget(redirectURI)
            let separator = mode == .fragment ? "#" : target.utf8.contains(UInt8(ascii: "?")) ? "&" : "?"
            let location = target + separator + URLEncodedForm.encode(parameters)
            guard location.utf8.count <= Self.maximumRedirectLength else {
                return errorPage(.queryStringTooLong(length: location.utf8.count, limit: Self.maximumRedirectLength), context: context)
            }
            response = HTTPResponse.redirect(to: location)
        case .formPost:
            response = HTTPResponse.html(pages.render("form_post", ["action": redirectURI, "fields": Pages.fields(parameters)]))
            // The page may submit its form to the redirect URI's origin only (its onload script stays allowed).
            let target = RedirectURI.formActionSource(redirectURI) ?? "'none'"
            response.headers["Content-Security-Policy"] = "form-action \(target); base-uri 'none'"
        }
        response.headers["Cache-Control"] = "no-store, no-cache"
        response.headers["Pragma"] = "no-cache"
        for cookie in cookies { response.headers.add("Set-Cookie", cookie.setCookieHeaderValue) }
        return response
    }

    /// Cookies are Secure with SameSite=None under TLS, so they travel in the cross-site form posts and
    /// iframes of real sign-in flows; over plain HTTP browsers refuse that pair, so Lax is used.
    func cookie(_ name: String, _ value: String, request: HTTPRequest, maxAge: Int? = nil) -> HTTPCookie {
        let secure = request.isSecure || (options.publicURL?.lowercased().hasPrefix("https://") ?? false)
        return HTTPCookie(name: name, value: value, path: "/", maxAge: maxAge, httpOnly: true, secure: secure,
                          sameSite: secure ? HTTPCookie.SameSite.none : .lax)
    }

    /// Renders one of the sign-in pages: the hidden fields plus a form token (reused from its cookie, or new and
    /// set as a cookie), no caching, no framing, and forms that may post only to this server (and `formActionSources`).
    func page(_ template: String, _ values: [String: Any], hidden: [(name: String, value: String)], request: HTTPRequest,
              cookies: [String: String], formActionSources: String = "", newSession: String? = nil) -> HTTPResponse {
        let existing = cookies[Self.formCookie].flatMap { $0.isEmpty ? nil : $0 }
        let token = existing ?? provider.newSessionID()
        var context = values
        context["action"] = request.path
        context["hidden"] = Pages.fields(hidden + [("mockidp_form_token", token)])
        var response = HTTPResponse.html(pages.render(template, context))
        response.headers["Cache-Control"] = "no-store, no-cache"
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["Content-Security-Policy"] =
            "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' \(formActionSources); frame-ancestors 'none'"
        if existing == nil { response.headers.add("Set-Cookie", cookie(Self.formCookie, token, request: request).setCookieHeaderValue) }
        if let newSession { response.headers.add("Set-Cookie", cookie(Self.sessionCookie, newSession, request: request).setCookieHeaderValue) }
        return response
    }

    // MARK: logout

    /// Ends the request's browser session, every account in it (OpenID Connect's logout, SAML single logout,
    /// WS-Federation's `wsignout1.0`); returns the cookie that clears it in the browser.
    func endBrowserSession(_ request: HTTPRequest) -> HTTPCookie {
        let cookies = HTTPCookie.parse(cookieHeader: request.headers["Cookie"] ?? "")
        if let session = cookies.first(where: { $0.name == Self.sessionCookie })?.value { provider.sessions.end(session) }
        return cookie(Self.sessionCookie, "", request: request, maxAge: 0)
    }

    /// `/{tenant}/oauth2/v2.0/logout`: ends the browser session; redirects only to a registered
    /// `post_logout_redirect_uri`, otherwise shows the signed-out page.
    func logout(_ request: HTTPRequest, tenant: String, context: RequestScope) -> HTTPResponse {
        var parameters = request.query
        if request.method == "POST", let form = try? URLEncodedForm.decode(request.body) { parameters += form }
        let value = { (name: String) in parameters.first { $0.name == name }?.value }
        let clear = endBrowserSession(request)
        if let target = value("post_logout_redirect_uri"),
           provider.signIn.isRegisteredLogoutRedirect(target, clientID: value("client_id"), tenantSegment: tenant, directory: context.directory) {
            var location = target
            if let state = value("state") {
                location += (target.utf8.contains(UInt8(ascii: "?")) ? "&" : "?") + URLEncodedForm.encode([("state", state)])
            }
            if location.utf8.count > Self.maximumRedirectLength {
                return errorPage(.queryStringTooLong(length: location.utf8.count, limit: Self.maximumRedirectLength),
                                 context: context)
            }
            var r = HTTPResponse.redirect(to: location)
            r.headers.add("Set-Cookie", clear.setCookieHeaderValue)
            return r
        }
        let note = value("post_logout_redirect_uri").map { "The address '\($0)' is not a registered redirect URI, so you stay here." }
        var r = HTTPResponse.html(pages.render("signedout", note.map { ["note": $0] } ?? [:]))
        r.headers.add("Set-Cookie", clear.setCookieHeaderValue)
        return r
    }
}
