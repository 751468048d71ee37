import MockIDPTesting
import XCTest

// The same in XCTest: the embedded default configuration (Contoso, with alice and bob), over HTTPS.
// The helpers trust the provider's fresh CA; hand idp.caCertificatePath to any other client you run.
final class SignInXCTests: XCTestCase {
    func testAliceSignsInWithHerPassword() async throws {
        try await withMockIdentityProvider(tls: true) { idp in
            XCTAssertTrue(idp.baseURL.hasPrefix("https://127.0.0.1:"))
            let tokens = try await idp.passwordToken(
                tenant: "contoso.onmicrosoft.com", clientID: "3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c",
                username: "alice@contoso.onmicrosoft.com", password: "alice-password",
                scopes: ["openid", "profile", "api://contoso-api/access_as_user"])
            XCTAssertEqual(tokens.claims["scp"], "access_as_user")
            XCTAssertEqual(tokens.idTokenClaims?["preferred_username"], "alice@contoso.onmicrosoft.com")
            XCTAssertEqual(tokens.idTokenClaims?["department"], "Sales")
        }
    }

    func testBobNeedsMultiFactorAuthentication() async throws {
        try await withMockIdentityProvider { idp in
            do {
                _ = try await idp.passwordToken(
                    tenant: "contoso.onmicrosoft.com", clientID: "3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c",
                    username: "bob@contoso.onmicrosoft.com", password: "bob-password", scopes: ["User.Read"])
                XCTFail("bob got a token without MFA")
            } catch let error as TokenRequestError {
                XCTAssertEqual(error.errorCodes, [50076])
            }
        }
    }
}
