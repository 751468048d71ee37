import Foundation
import MockIDPJOSE
import MockIDPTesting
import Testing

/// A session cookie planted in the victim's browser (by a sibling subdomain, a shared machine, a crafted link) must
/// never become the victim's session: sign-in always issues a fresh, server-generated ID unless the cookie names a
/// session this server created and still holds.
@Suite struct SessionFixationTests {
    static let planted = "planted-by-the-attacker"

    static func entraAuthorizeURL(_ idp: MockIdentityProvider, prompt: String? = nil) -> String {
        var items = [("client_id", EndpointTests.mobile), ("redirect_uri", "http://localhost"), ("response_type", "code"),
                     ("scope", "openid"), ("state", "st"), ("code_challenge", B2CEndpointTests.challenge),
                     ("code_challenge_method", "S256")]
        if let prompt { items.append(("prompt", prompt)) }
        return "\(idp.baseURL)/\(EndpointTests.contoso)/oauth2/v2.0/authorize?"
            + items.map { "\(percentEncoded($0.0))=\(percentEncoded($0.1))" }.joined(separator: "&")
    }

    @Test("a planted session cookie is replaced by a fresh one at sign-in, and the attacker's copy signs nobody in",
          arguments: MockIdentityProviderMode.allCases)
    func plantedCookieIsNotAdopted(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            let victim = Browser(idp)
            victim.cookies["mockidp_session"] = Self.planted
            let page = try await victim.send("GET", Self.entraAuthorizeURL(idp))
            #expect(page.status == 200)
            let done = try await victim.submit(page, action: "signin",
                                               [("username", "alice@contoso.onmicrosoft.com"), ("password", "alice-password")])
            #expect(done.status == 302 && B2CEndpointTests.query(done.header("Location"))["code"] != nil)
            let issued = try #require(victim.cookies["mockidp_session"])
            #expect(issued != Self.planted && issued.count >= 43)
            let sessionState = B2CEndpointTests.query(done.header("Location"))["session_state"]
            #expect(sessionState != nil)

            let attacker = Browser(idp)
            attacker.cookies["mockidp_session"] = Self.planted
            let silent = try await attacker.send("GET", Self.entraAuthorizeURL(idp, prompt: "none"))
            #expect(B2CEndpointTests.query(silent.header("Location"))["error"] == "login_required")
            // The victim's own (server-issued) session still works silently, and is kept at the next sign-in.
            let again = try await victim.send("GET", Self.entraAuthorizeURL(idp, prompt: "none"))
            #expect(B2CEndpointTests.query(again.header("Location"))["code"] != nil)
            let login = try await victim.send("GET", Self.entraAuthorizeURL(idp, prompt: "login"))
            let renewed = try await victim.submit(login, action: "signin",
                                                  [("username", "alice@contoso.onmicrosoft.com"), ("password", "alice-password")])
            // The session lives in its cookie (sealed), so the cookie's bytes change with each sign-in; the session
            // itself is kept, as its session_state shows.
            #expect(B2CEndpointTests.query(renewed.header("Location"))["session_state"] == sessionState)
            #expect(victim.cookies["mockidp_session"] != Self.planted)
        }
    }

    @Test("a B2C sign-in page never adopts a planted session cookie either",
          arguments: MockIdentityProviderMode.allCases)
    func plantedCookieIsNotAdoptedByB2C(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: .value(try B2CEndpointTests.configuration()), mode: mode) { idp in
            let victim = Browser(idp)
            victim.cookies["mockidp_session"] = Self.planted
            let response = try await B2CEndpointTests.signIn(idp, victim, url: B2CEndpointTests.authorizeURL(idp))
            #expect(response["code"] != nil)
            #expect(victim.cookies["mockidp_session"] != Self.planted)

            let attacker = Browser(idp)
            attacker.cookies["mockidp_session"] = Self.planted
            let silent = try await attacker.send("GET", B2CEndpointTests.authorizeURL(idp, extra: [("prompt", "none")]))
            #expect(B2CEndpointTests.query(silent.header("Location"))["code"] == nil)
        }
    }
}
