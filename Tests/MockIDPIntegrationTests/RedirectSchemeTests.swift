import Foundation
import MockIDPConfiguration
import MockIDPCore
import MockIDPTesting
import Testing

/// Redirect URIs with a scheme a browser runs or reads locally (`javascript:`, `data:`, `vbscript:`, `file:`) are never
/// registered through the control API and never receive a response; a form_post page may submit only to the redirect
/// URI's origin.
@Suite struct RedirectSchemeTests {
    static let tenant = "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11"
    static let dangerous = ["javascript:alert(document.domain)//", "JavaScript:alert(1)", "data:text/html,<script>alert(1)</script>",
                            "vbscript:msgbox(1)", "file:///etc/passwd"]

    static let configuration = """
        tenants:
          - id: \(tenant)
            domains: [contoso.onmicrosoft.com]
            users:
              - {username: alice@contoso.onmicrosoft.com, password: alice-password}
            apps:
              - clientId: 0b8f4c2e-1d3a-4b5c-8e7f-9a0b1c2d3e4f
                type: public
                redirectUris: ["javascript:alert(document.domain)//", "data:text/html,hi", "http://localhost"]
              - clientId: 1c9a5d3f-2e4b-4c6d-9f8a-0b1c2d3e4f5a
                type: public
                redirectUris: ["javascript:alert(document.domain)//"]
        """

    static func authorizeURL(_ idp: MockIdentityProvider, clientID: String, redirectURI: String?, mode: String? = nil) -> String {
        var items = [("client_id", clientID), ("response_type", "code"), ("scope", "openid"), ("state", "st")]
        if let redirectURI { items.append(("redirect_uri", redirectURI)) }
        if let mode { items.append(("response_mode", mode)) }
        return "\(idp.baseURL)/\(tenant)/oauth2/v2.0/authorize?" + items.map { "\(percentEncoded($0.0))=\(percentEncoded($0.1))" }.joined(separator: "&")
    }

    @Test("the control API refuses to register an app with a javascript:, data:, vbscript: or file: redirect URI",
          arguments: MockIdentityProviderMode.allCases, dangerous)
    func controlAPIRefusesDangerousSchemes(mode: MockIdentityProviderMode, uri: String) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            let clientID = "2d0b6e4a-3f5c-4d7e-8a9b-1c2d3e4f5a6b"
            let app = #"{"clientId": "\#(clientID)", "type": "public", "redirectUris": ["http://localhost", "\#(uri)"]}"#
            let r = try await idp.postJSON("/_mockidp/tenants/\(Self.tenant)/apps", text: app)
            #expect(r.status == 400, "\(r.text)")
            #expect(r.json["error"] == "invalid_request")
            #expect(r.json["problems"]?.arrayValue?.first?["path"] == "redirectUris[1]", "\(r.text)")
            // Not registered: authorize does not know the client.
            let page = try await idp.get(Self.authorizeURL(idp, clientID: clientID, redirectURI: "http://localhost"))
            #expect(page.status == 400 && page.text.contains("700016"))
        }
    }

    /// `configuration` with its apps' dangerous redirect URIs put back in code: the configuration file refuses them, so
    /// a configuration built in code (not validated again) is the only way to hold one.
    static func configurationHoldingDangerousURIs() throws -> IdentityProviderConfiguration {
        let safe = Self.configuration.replacingOccurrences(of: "\"javascript:alert(document.domain)//\", \"data:text/html,hi\", ", with: "")
            .replacingOccurrences(of: "[\"javascript:alert(document.domain)//\"]", with: "[\"http://localhost\"]")
        var configuration = try ConfigurationSource.yaml(safe).load()
        configuration.tenants[0].apps[0].redirectURIs = ["javascript:alert(document.domain)//", "data:text/html,hi", "http://localhost"]
        configuration.tenants[0].apps[1].redirectURIs = ["javascript:alert(document.domain)//"]
        return configuration
    }

    @Test("the configuration refuses a dangerous redirect URI, with its line")
    func configurationRefusesDangerousSchemes() {
        #expect(throws: ConfigurationError.self) { try ConfigurationSource.yaml(Self.configuration).load() }
        do {
            _ = try ConfigurationSource.yaml(Self.configuration).load()
        } catch {
            #expect(error.problems.map(\.line) == [9, 9, 12], "\(error.problems)")
            #expect(error.problems.allSatisfy { $0.reason.contains("a browser runs or reads locally") })
        }
    }

    @Test("authorize never redirects or posts to a dangerous redirect URI, even one in a configuration built in code",
          arguments: MockIdentityProviderMode.allCases)
    func authorizeNeverUsesDangerousSchemes(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: .value(try Self.configurationHoldingDangerousURIs()), mode: mode) { idp in
            let browser = Browser(idp)
            for uri in ["javascript:alert(document.domain)//", "data:text/html,hi"] {
                for mode in [nil, "form_post", "fragment"] {
                    let r = try await browser.send("GET", Self.authorizeURL(idp, clientID: "0b8f4c2e-1d3a-4b5c-8e7f-9a0b1c2d3e4f",
                                                                            redirectURI: uri, mode: mode))
                    #expect(r.status == 400 && r.header("Location") == nil, "\(uri) \(mode ?? "query")")
                    #expect(r.text.contains("50011") && !r.text.contains("action=\"javascript") && !r.text.contains("action=\"data"))
                }
            }
            // No redirect_uri: the app's only registered URI is used, but never a dangerous one.
            let only = try await browser.send("GET", Self.authorizeURL(idp, clientID: "1c9a5d3f-2e4b-4c6d-9f8a-0b1c2d3e4f5a",
                                                                       redirectURI: nil, mode: "form_post"))
            #expect(only.status == 400 && only.header("Location") == nil && !only.text.contains("javascript:"))
            // Logout does not send the user there either.
            let logout = try await browser.send("GET", "\(idp.baseURL)/\(Self.tenant)/oauth2/v2.0/logout?post_logout_redirect_uri="
                                                + percentEncoded("javascript:alert(document.domain)//"))
            #expect(logout.status == 200 && logout.header("Location") == nil)
        }
    }

    @Test("the form_post page may submit only to the redirect URI's origin (CSP form-action)",
          arguments: MockIdentityProviderMode.allCases)
    func formPostLimitsFormAction(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            let browser = Browser(idp)
            let url = Self.authorizeURL(idp, clientID: EndpointTests.mobile,
                                        redirectURI: "https://login.microsoftonline.com/common/oauth2/nativeclient", mode: "form_post")
            let page = try await browser.send("GET", url)
            let posted = try await browser.submit(page, action: "signin",
                                                  [("username", "alice@contoso.onmicrosoft.com"), ("password", "alice-password")])
            #expect(posted.status == 200 && posted.text.contains("action=\"https://login.microsoftonline.com/common/oauth2/nativeclient\""),
                    "\(posted.text.prefix(400))")
            #expect(posted.header("Content-Security-Policy")?.contains("form-action https://login.microsoftonline.com;") == true,
                    "\(posted.header("Content-Security-Policy") ?? "no CSP")")
        }
    }
}
