import Foundation
import MockIDPJOSE
import MockIDPTesting
import Testing

/// The inspector (`GET /_mockidp/`) and the calls its page makes: the control API's access rule with the real
/// binary's `--admin-token` and `--no-admin`, and in both modes a strict CSP whose nonce is the page's, and tokens
/// read back with their signatures checked.
@Suite struct InspectorTests {
    @Test("the page and its calls follow the control API's access rule")
    func accessRule() async throws {
        try await CommandLineTests.withServe(["--admin-token", "let-me-in"]) { server in
            for path in ["/_mockidp/", "/_mockidp/inspection"] {
                #expect(try await server.get(path).status == 401, "\(path)")
                #expect(try await server.get(path, headers: ["Authorization": "Bearer let-me-in"]).status == 200, "\(path)")
            }
            let inspect = try await server.execute("POST", "/_mockidp/tokens/inspect", body: Array(#"{"token": "x"}"#.utf8))
            #expect(inspect.status == 401)
        }
        try await CommandLineTests.withServe(["--no-admin"]) { server in
            let page = try await server.get("/_mockidp/"), state = try await server.get("/_mockidp/inspection")
            #expect(page.status == 404 && state.status == 404)
        }
    }

    @Test("the page runs only its own script and style: the CSP nonce is the one in the page, fresh each time",
          arguments: MockIdentityProviderMode.allCases)
    func contentSecurityPolicy(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            let page = try await idp.get("/_mockidp/")
            #expect(page.header("Content-Type") == "text/html; charset=utf-8")
            let policy = try #require(page.header("Content-Security-Policy"))
            let nonce = try #require(policy.split(separator: "'").first { $0.hasPrefix("nonce-") }).dropFirst("nonce-".count)
            #expect(policy.hasPrefix("default-src 'none'; script-src 'nonce-\(nonce)'; style-src 'nonce-\(nonce)'"))
            #expect(page.text.components(separatedBy: "nonce=\"\(nonce)\"").count == 3)
            #expect(!page.text.contains("src=\"http") && !page.text.contains("href=\"http"))
            let again = try await idp.get("/_mockidp/")
            #expect(again.header("Content-Security-Policy") != policy)
        }
    }

    @Test("the state call lists tenants with their authorities, groups, managed identities, keys and sessions; a pasted token is checked against the keys",
          arguments: MockIdentityProviderMode.allCases)
    func stateAndTokens(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            let base = idp.baseURL
            let state = try await idp.get("/_mockidp/inspection").json
            let contoso = try #require(state["tenants"]?.arrayValue?.first)
            #expect(contoso["name"] == "Contoso")
            let authorities = contoso["authorities"]?.arrayValue?.compactMap { $0["url"]?.stringValue } ?? []
            #expect(authorities.contains(base + "/6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11"))
            #expect(authorities.contains(base + "/6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11/v2.0/.well-known/openid-configuration"))
            #expect(state["keys"]?.arrayValue?.first?["signing"] == true)
            #expect(contoso["groups"]?.arrayValue?.first?["name"] == "Sales")
            #expect(contoso["managedIdentities"]?.arrayValue?.isEmpty == true)

            let form = "grant_type=client_credentials&client_id=9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d&client_secret=daemon-secret"
                + "&scope=api%3A%2F%2Fcontoso-api%2F.default"
            let issued = try await idp.execute("POST", "/contoso.onmicrosoft.com/oauth2/v2.0/token",
                                               headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Array(form.utf8))
            let token = try #require(issued.json["access_token"]?.stringValue)
            func inspect(_ token: String) async throws -> JSONValue {
                try await idp.postJSON("/_mockidp/tokens/inspect", ["token": .string(token)]).json
            }
            let good = try await inspect(token)
            #expect(good["signature"]?["verified"] == true)
            #expect(good["claims"]?["appid"] == nil && good["claims"]?["azp"] == "9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d")
            var parts = token.split(separator: ".").map(String.init)
            parts[2] = (parts[2].hasPrefix("A") ? "B" : "A") + parts[2].dropFirst()
            let bad = try await inspect(parts.joined(separator: "."))
            #expect(bad["signature"]?["verified"] == false)
            #expect(try await inspect("not a token")["error"]?.stringValue?.contains("not a signed JWT") == true)
        }
    }
}
