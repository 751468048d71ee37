import MockIDPJOSE
import MockIDPTesting
import Testing

/// Consent over HTTP (docs/sign-in.md, "Consent"): an app with `consentRequired` shows the consent page after
/// sign-in, `prompt=none` answers `consent_required`, Cancel answers `access_denied`, and the control API records,
/// lists and revokes consents.
@Suite struct ConsentFlowTests {
    static let notes = "5e0c7a3b-9d21-4f4e-8b6a-3c2d1e0f9a8b"

    static func authorizeURL(_ idp: MockIdentityProvider, prompt: String? = nil, scope: String = "openid User.Read") -> String {
        var items = [("client_id", notes), ("redirect_uri", "http://localhost"), ("response_type", "code"),
                     ("scope", scope), ("state", "st"), ("code_challenge", B2CEndpointTests.challenge),
                     ("code_challenge_method", "S256")]
        if let prompt { items.append(("prompt", prompt)) }
        return "\(idp.baseURL)/\(EndpointTests.contoso)/oauth2/v2.0/authorize?"
            + items.map { "\(percentEncoded($0.0))=\(percentEncoded($0.1))" }.joined(separator: "&")
    }

    static func addNotes(_ idp: MockIdentityProvider) async throws {
        try await idp.addApp(MockApp(clientID: notes, name: "Contoso Notes", type: "public", redirectURIs: ["http://localhost"],
                                     settings: ["consentRequired": true]), tenant: EndpointTests.contoso)
    }

    @Test("sign-in shows the consent page in words; Cancel is access_denied (AADSTS65004); prompt=none is consent_required; Accept records it",
          arguments: MockIdentityProviderMode.allCases)
    func browserFlow(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            try await Self.addNotes(idp)
            let browser = Browser(idp)
            let signIn = try await browser.send("GET", Self.authorizeURL(idp))
            let consent = try await browser.submit(signIn, action: "signin",
                                                   [("username", "alice@contoso.onmicrosoft.com"), ("password", "alice-password")])
            #expect(consent.status == 200)
            #expect(consent.text.contains("Contoso Notes") && consent.text.contains("Sign you in and read your profile")
                    && consent.text.contains("<code>openid</code>"))
            let declined = try await browser.submit(consent, action: "consent", [("consent", "cancel")])
            let answer = B2CEndpointTests.query(declined.header("Location"))
            #expect(declined.status == 302 && answer["error"] == "access_denied" && answer["error_description"]?.hasPrefix("AADSTS65004") == true)

            // Signed in, not consented: prompt=none cannot ask.
            let silent = try await browser.send("GET", Self.authorizeURL(idp, prompt: "none"))
            let silentAnswer = B2CEndpointTests.query(silent.header("Location"))
            #expect(silentAnswer["error"] == "consent_required" && silentAnswer["error_description"]?.hasPrefix("AADSTS65001") == true)
            #expect(silentAnswer["state"] == "st")
            let log = try await idp.requests()
            #expect(log.last?.reason?.contains("has not consented") == true)

            // The session's account goes straight to the consent page; Accept answers with a code.
            let again = try await browser.send("GET", Self.authorizeURL(idp))
            #expect(again.status == 200 && again.text.contains("Permissions requested"))
            let accepted = try await browser.submit(again, action: "consent", [("consent", "accept")])
            #expect(accepted.status == 302 && B2CEndpointTests.query(accepted.header("Location"))["code"] != nil)
            let consents = try await idp.consents()
            #expect(consents.count == 1 && consents.first?["scope"] == "openid User.Read" && consents.first?["clientId"] == .string(Self.notes))
            let inspection = try await idp.get("/_mockidp/inspection")
            #expect(inspection.json["consents"]?.arrayValue?.first?["username"] == "alice@contoso.onmicrosoft.com")

            // Now silent works; a new scope asks again for that scope only; prompt=consent asks for everything.
            #expect(B2CEndpointTests.query(try await browser.send("GET", Self.authorizeURL(idp, prompt: "none")).header("Location"))["code"] != nil)
            let more = try await browser.send("GET", Self.authorizeURL(idp, scope: "openid User.Read Mail.Read"))
            #expect(more.status == 200 && more.text.contains("Read your mail") && !more.text.contains("Sign you in and read your profile"))
            let forced = try await browser.send("GET", Self.authorizeURL(idp, prompt: "consent"))
            #expect(forced.status == 200 && forced.text.contains("Sign you in and read your profile"))
        }
    }

    @Test("headlessSignIn skips the sign-in page, not the consent page", arguments: MockIdentityProviderMode.allCases)
    func headless(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            try await idp.addApp(MockApp(clientID: Self.notes, name: "Contoso Notes", type: "public", redirectURIs: ["http://localhost"],
                                         settings: ["consentRequired": true, "headlessSignIn": true]), tenant: EndpointTests.contoso)
            let browser = Browser(idp)
            let page = try await browser.send("GET", Self.authorizeURL(idp) + "&login_hint=alice%40contoso.onmicrosoft.com")
            #expect(page.status == 200 && page.text.contains("Permissions requested") && browser.cookies["mockidp_session"] != nil)
            let accepted = try await browser.submit(page, action: "consent", [("consent", "accept")])
            #expect(B2CEndpointTests.query(accepted.header("Location"))["code"] != nil)
            let again = try await Browser(idp).send("GET", Self.authorizeURL(idp) + "&login_hint=alice%40contoso.onmicrosoft.com")
            #expect(again.status == 302 && B2CEndpointTests.query(again.header("Location"))["code"] != nil)
        }
    }

    @Test("the control API records, lists and revokes consents; bad bodies are 400 with the reason; reset forgets them",
          arguments: MockIdentityProviderMode.allCases)
    func controlAPI(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            try await Self.addNotes(idp)
            let password: [(String, String)] = [("grant_type", "password"), ("client_id", Self.notes), ("username", "alice@contoso.onmicrosoft.com"),
                                                ("password", "alice-password"), ("scope", "User.Read openid")]
            let tokenURL = "\(idp.baseURL)/\(EndpointTests.contoso)/oauth2/v2.0/token"
            let refused = try await idp.postForm(tokenURL, password)
            #expect(refused.status == 400 && refused.json["error"] == "invalid_grant" && refused.json["suberror"] == "consent_required")
            #expect(refused.json["error_codes"] == [65001])

            let granted = try await idp.grantConsent(username: "alice@contoso.onmicrosoft.com", clientID: Self.notes, scope: "User.Read openid")
            #expect(granted["consents"]?.arrayValue?.first?["scope"] == "openid User.Read")
            #expect(try await idp.postForm(tokenURL, password).status == 200)

            await #expect(throws: ControlAPIError.self) {
                try await idp.grantConsent(username: "nobody@contoso.onmicrosoft.com", clientID: Self.notes, scope: "User.Read")
            }
            await #expect(throws: ControlAPIError.self) {
                try await idp.grantConsent(username: "alice@contoso.onmicrosoft.com", clientID: Self.notes, scope: "api://nowhere/x")
            }
            #expect(try await idp.revokeConsents(username: "bob@contoso.onmicrosoft.com") == 0)
            #expect(try await idp.revokeConsents(clientID: Self.notes) == 1)
            #expect(try await idp.postForm(tokenURL, password).status == 400)
            try await idp.grantConsent(username: "alice@contoso.onmicrosoft.com", clientID: Self.notes, scope: "User.Read openid")
            try await idp.reset()
            #expect(try await idp.consents().isEmpty)
        }
    }
}
