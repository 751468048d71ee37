import MockIDPCore
import Testing

/// Authorize's checks one step at a time (each test runs the steps up to the one it is about).
@Suite struct AuthorizationChecksTests {
    let provider = Fixtures.provider()

    func checks(_ pairs: [(String, String)]) -> AuthorizationChecks {
        AuthorizationChecks(request: AuthorizationRequest(tenant: Fixtures.contosoID, parameters: pairs.map { (name: $0.0, value: $0.1) }),
                            b2c: nil, directory: provider.snapshot())
    }

    func code(_ failure: AuthorizationChecks.Failure?) -> String {
        switch failure {
        case nil: "pass"
        case .errorPage(let e)?: "page \(e.aadsts ?? 0)"
        case .redirect(let e)?: "redirect \(e.aadsts ?? 0)"
        }
    }

    @Test("the steps run in Entra's order: the client and its redirect URI before anything that may redirect")
    func order() {
        #expect(AuthorizationChecks.stepNames == ["parameters", "tenant", "client", "redirect URI", "response type and mode",
                                                  "scope", "prompt", "max_age", "PKCE", "sign-in claims"])
    }

    @Test("up to the redirect URI a failure is a page; a bad response type after it goes back to the redirect URI")
    func pageThenRedirect() {
        let base = [("client_id", Fixtures.mobile), ("redirect_uri", "http://localhost"), ("response_type", "magic")]
        #expect(code(checks(base).failure(runningThrough: "redirect URI")) == "pass")
        #expect(code(checks(base).failure(runningThrough: "response type and mode")) == "redirect 700054")
        #expect(code(checks([("client_id", Fixtures.mobile), ("redirect_uri", "https://evil.example")])
            .failure(runningThrough: "redirect URI")) == "page 50011")
        #expect(code(checks(base + [("state", "a"), ("state", "b")]).failure(runningThrough: "parameters")) == "page 9000411")
    }

    @Test("the PKCE step alone: a malformed challenge and an unknown method are refused, a good pair passes")
    func pkce() {
        let base = [("client_id", Fixtures.mobile), ("redirect_uri", "http://localhost"), ("response_type", "code"),
                    ("scope", "openid")]
        #expect(code(checks(base + [("code_challenge", "short"), ("code_challenge_method", "S256")]).failure()) == "redirect 90023")
        #expect(code(checks(base + [("code_challenge", String(repeating: "a", count: 43)), ("code_challenge_method", "MD5")]).failure()) != "pass")
        #expect(code(checks(base + [("code_challenge", String(repeating: "a", count: 43)), ("code_challenge_method", "S256")]).failure()) == "pass")
    }

    @Test("a scope or nonce longer than a code keeps goes back to the redirect URI (70011, 90023) before any code is issued")
    func overlongKeptValues() {
        let base = [("client_id", Fixtures.mobile), ("redirect_uri", "http://localhost"), ("response_type", "code")]
        let huge = "openid " + Array(repeating: "User.Read", count: 2_000).joined(separator: " ")
        #expect(code(checks(base + [("scope", huge)]).failure(runningThrough: "scope")) == "redirect 70011")
        #expect(code(checks(base + [("scope", "openid"), ("nonce", String(repeating: "n", count: 2_049))])
            .failure(runningThrough: "scope")) == "redirect 90023")
        #expect(code(checks(base + [("scope", "openid"), ("nonce", String(repeating: "n", count: 2_048))])
            .failure(runningThrough: "scope")) == "pass")
        // v1: the resource becomes part of the kept scope.
        let v1 = AuthorizationChecks(request: AuthorizationRequest(
            tenant: Fixtures.contosoID, version: .v1,
            parameters: (base + [("resource", "api://" + String(repeating: "r", count: 9_000))]).map { (name: $0.0, value: $0.1) }),
            b2c: nil, directory: provider.snapshot())
        #expect(code(v1.failure(runningThrough: "scope")) == "redirect 70011")
    }
}
