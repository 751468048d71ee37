import MockIDPCore
import MockIDPHTTP

/// WS-Federation over HTTP (docs/saml.md, "WS-Federation"): `/{tenant}/wsfed`, GET or POST. `wa=wsignin1.0` signs the
/// user in on the ordinary sign-in page, as a SAML sign-on with the same browser session, and an auto-submitting form
/// posts `wa`, `wresult` and `wctx` to `wreply`; `wa=wsignout1.0` (or `wsignoutcleanup1.0`) ends the session and
/// returns to `wreply` when it is registered.
extension EndpointHandlers {
    func wsFederation(_ request: HTTPRequest, tenant: String, context: RequestScope) throws(OAuthError) -> HTTPResponse {
        guard request.method == "GET" || request.method == "POST" else {
            return HTTPResponse(status: .methodNotAllowed, headers: ["Allow": "GET, POST"])
        }
        var parameters = request.query
        if request.method == "POST" {
            do { parameters += try URLEncodedForm.decode(request.body) } catch { throw .malformedRequest(error.description) }
        }
        let value = { (name: String) in parameters.first { $0.name == name }?.value }
        let cookies = Self.requestCookies(request)
        if let resumed = try resumeSAMLSignOn(request, value: value, cookies: cookies, context: context) { return resumed }
        switch value("wa") {
        case "wsignin1.0":
            let check = provider.saml.wsFederationSignIn(realm: value("wtrealm"), reply: value("wreply"), wctx: value("wctx"),
                                                         fresh: value("wfresh"), tenant: tenant, context: context)
            return try answerSAMLCheck(check, request: request, cookies: cookies, context: context)
        case "wsignout1.0", "wsignoutcleanup1.0":
            let target = try provider.saml.wsFederationSignOutTarget(reply: value("wreply"), realm: value("wtrealm"), tenant: tenant,
                                                                     directory: context.directory).get()
            let clear = endBrowserSession(request)
            var response: HTTPResponse
            if let target {
                response = HTTPResponse.redirect(to: target)
            } else {
                let note = value("wreply").map { "The address '\($0)' is not a registered reply URL, so you stay here." }
                response = HTTPResponse.html(pages.render("signedout", note.map { ["note": $0] } ?? [:]))
            }
            response.headers.add("Set-Cookie", clear.setCookieHeaderValue)
            return response
        case let action:
            throw .wsFederationUnknownAction(action)
        }
    }
}
