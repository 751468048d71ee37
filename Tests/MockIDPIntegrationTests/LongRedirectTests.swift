import Foundation
import MockIDPTesting
import Testing

/// A redirect too long for the connection (a huge `state` echoed back) still gets an answer: Entra's error page.
@Suite struct LongRedirectTests {
    static func authorizeURL(_ idp: MockIdentityProvider, state: String) -> String {
        "\(idp.baseURL)/\(EndpointTests.contoso)/oauth2/v2.0/authorize?client_id=\(EndpointTests.mobile)"
            + "&redirect_uri=http%3A%2F%2Flocalhost&response_type=code&scope=openid&prompt=none&state=\(state)"
    }

    @Test("a 40 KB state gets Entra's AADSTS90015 page instead of no answer; a 10 KB one is redirected as usual",
          arguments: MockIdentityProviderMode.allCases)
    func longState(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            let browser = Browser(idp)
            let long = try await browser.send("GET", Self.authorizeURL(idp, state: String(repeating: "s", count: 40_000)))
            #expect(long.status == 400 && long.header("Location") == nil)
            #expect(long.text.contains("90015"), "\(long.text.prefix(300))")
            let usual = try await browser.send("GET", Self.authorizeURL(idp, state: String(repeating: "s", count: 10_000)))
            #expect(usual.status == 302)
            #expect(B2CEndpointTests.query(usual.header("Location"))["error"] == "login_required")
        }
    }

    @Test("a redirect just under the 16 KiB limit reaches a client whose request takes nearly all of --max-header-size")
    func longestRedirectBesideTheLargestHead() async throws {
        try await withMockIdentityProvider { idp in
            let browser = Browser(idp)
            // A cookie counts twice toward the 64 KiB a request's head may take (libmicrohttpd keeps a parsed copy).
            browser.cookies["padding"] = String(repeating: "p", count: 23_500)
            let state = String(repeating: "s", count: 15_000)
            let reply = try await browser.send("GET", Self.authorizeURL(idp, state: state))
            #expect(reply.status == 302, "\(reply.status) \(reply.text.prefix(300))")
            let location = try #require(reply.header("Location"))
            #expect(location.utf8.count > 15_000 && location.utf8.count <= 16 * 1024)
            #expect(B2CEndpointTests.query(location)["state"] == state)
        }
    }
}
