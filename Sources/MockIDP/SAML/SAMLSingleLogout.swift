import MockIDPCore
import MockIDPHTTP

/// SAML single logout over HTTP (docs/saml.md, "Single logout"): a `LogoutRequest` Core has checked ends the browser
/// session, as OpenID Connect logout does, and the browser is redirected to the app's `logoutUrl` with the signed
/// `LogoutResponse`.
extension EndpointHandlers {
    func samlSignedOut(_ request: HTTPRequest, location: String, context: RequestScope) -> HTTPResponse {
        if location.utf8.count > Self.maximumRedirectLength {
            return errorPage(.queryStringTooLong(length: location.utf8.count, limit: Self.maximumRedirectLength), context: context)
        }
        let clear = endBrowserSession(request)
        var response = HTTPResponse.redirect(to: location)
        response.headers.add("Set-Cookie", clear.setCookieHeaderValue)
        return response
    }
}
