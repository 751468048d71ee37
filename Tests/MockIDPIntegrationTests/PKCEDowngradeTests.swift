import Foundation
import MockIDPTesting
import Testing

/// RFC 9700 §2.1.1: a code issued without `code_challenge` is not redeemed with a `code_verifier`.
@Suite struct PKCEDowngradeTests {
    static func code(_ idp: MockIdentityProvider, challenge: Bool) async throws -> String {
        var url = "\(idp.baseURL)/\(EndpointTests.contoso)/oauth2/v2.0/authorize?client_id=\(EndpointTests.web)"
            + "&redirect_uri=http%3A%2F%2Flocalhost&response_type=code&scope=openid&state=st"
        if challenge { url += "&code_challenge=\(B2CEndpointTests.challenge)&code_challenge_method=S256" }
        let browser = Browser(idp)
        let page = try await browser.send("GET", url)
        let done = try await browser.submit(page, action: "signin",
                                            [("username", "alice@contoso.onmicrosoft.com"), ("password", "alice-password")])
        return try #require(B2CEndpointTests.query(done.header("Location"))["code"], "\(done.text.prefix(300))")
    }

    static func redeem(_ idp: MockIdentityProvider, _ code: String, verifier: String?) async throws -> MockIDPResponse {
        var form = [("grant_type", "authorization_code"), ("client_id", EndpointTests.web), ("client_secret", "web-secret"),
                    ("code", code), ("redirect_uri", "http://localhost"), ("scope", "openid")]
        if let verifier { form.append(("code_verifier", verifier)) }
        return try await idp.postForm("/\(EndpointTests.contoso)/oauth2/v2.0/token", form)
    }

    @Test("a code_verifier for a code issued without code_challenge is refused as a bad verifier (AADSTS501481)",
          arguments: MockIdentityProviderMode.allCases)
    func verifierWithoutChallenge(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            let code = try await Self.code(idp, challenge: false)
            let downgraded = try await Self.redeem(idp, code, verifier: B2CEndpointTests.verifier)
            #expect(downgraded.status == 400 && downgraded.json["error"] == "invalid_grant", "\(downgraded.text)")
            #expect(downgraded.json["error_codes"] == [501481])
            // The refusal does not spend the code: its client, redeeming it as issued, still can.
            let plain = try await Self.redeem(idp, code, verifier: nil)
            #expect(plain.status == 200, "\(plain.text)")
            // With a challenge, the verifier is what redeems it, as before.
            let pkce = try await Self.redeem(idp, try await Self.code(idp, challenge: true), verifier: B2CEndpointTests.verifier)
            #expect(pkce.status == 200, "\(pkce.text)")
        }
    }
}
