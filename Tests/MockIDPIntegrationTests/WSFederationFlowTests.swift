import Foundation
import MockIDPJOSE
import MockIDPTesting
import Testing

/// WS-Federation over HTTP (docs/saml.md, "WS-Federation"), in both modes: `wsignin1.0` through the ordinary sign-in
/// page to the auto-submitting form that posts `wa`, `wresult` and `wctx` to `wreply`, the browser session shared with
/// SAML sign-on, `wfresh=0`, SAML 1.1 by `wsfedTokenType`, tamper faults, Entra's refusals and `wsignout1.0`.
@Suite struct WSFederationFlowTests {
    static let app = "7b3e0c2d-5f1a-4b6e-9d8c-1a2b3c4d5e6f"
    static let realm = "urn:contoso:wsfed-app"
    static let reply = "https://rp.example.test/signin-wsfed"
    static let otherReply = "https://rp.example.test/other"
    static let alice = [("username", "alice@contoso.onmicrosoft.com"), ("password", "alice-password")]

    static func addApp(_ idp: MockIdentityProvider, saml: JSONObject = [:]) async throws {
        try await idp.addApp(MockApp(clientID: app, name: "Contoso WS-Fed RP", redirectURIs: [reply, otherReply], identifierURIs: [realm],
                                     settings: ["saml": .object(saml)]), tenant: EndpointTests.contoso)
    }

    static func url(_ idp: MockIdentityProvider, _ query: [(String, String)]) -> String {
        "\(idp.baseURL)/\(EndpointTests.contoso)/wsfed?" + formEncoded(query)
    }

    /// The auto-submitting form's fields, posted to `to`.
    static func posted(_ page: MockIDPResponse, to: String = reply) throws -> [String: String] {
        let html = page.text
        guard html.contains("action=\"\(to)\"") else { throw MockIDPTestError("no form to \(to): \(html.prefix(400))") }
        var fields: [String: String] = [:]
        for match in html.matches(of: /name="([^"]*)" value="([^"]*)"/) {
            fields[Browser.unescape(String(match.output.1))] = Browser.unescape(String(match.output.2))
        }
        return fields
    }

    @Test("wsignin1.0 through the sign-in page posts a wresult with a SAML 2.0 assertion for the realm; the session answers next",
          arguments: MockIdentityProviderMode.allCases)
    func signIn(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            try await Self.addApp(idp)
            let browser = Browser(idp)
            let page = try await browser.send("GET", Self.url(idp, [("wa", "wsignin1.0"), ("wtrealm", Self.realm), ("wctx", "rm=0&id=42")]))
            #expect(page.status == 200 && page.text.contains("Contoso WS-Fed RP") && page.text.contains("name=\"password\""))
            let fields = try Self.posted(try await browser.submit(page, action: "signin", Self.alice))
            #expect(fields["wa"] == "wsignin1.0" && fields["wctx"] == "rm=0&id=42")
            let wresult = try #require(fields["wresult"])
            #expect(wresult.hasPrefix("<t:RequestSecurityTokenResponse xmlns:t=\"http://schemas.xmlsoap.org/ws/2005/02/trust\"><t:Lifetime>"))
            #expect(wresult.contains("<wsa:Address>\(Self.realm)</wsa:Address>") && wresult.contains("<Audience>\(Self.realm)</Audience>"))
            #expect(wresult.contains("Recipient=\"\(Self.reply)\"") && !wresult.contains("InResponseTo"))
            #expect(wresult.contains("<t:TokenType>http://docs.oasis-open.org/wss/oasis-wss-saml-token-profile-1.1#SAMLV2.0</t:TokenType>"))
            #expect(wresult.contains(">alice@contoso.onmicrosoft.com</NameID>") && wresult.components(separatedBy: "<SignatureValue>").count == 2)

            // Signed in (also for SAML sign-on): the next wsignin is answered at once, to the wreply asked for;
            // wfresh=0 asks for the password again.
            let again = try Self.posted(try await browser.send("GET", Self.url(idp, [("wa", "wsignin1.0"), ("wtrealm", Self.realm),
                                                                                   ("wreply", Self.otherReply)])), to: Self.otherReply)
            #expect(again["wresult"]?.contains("Recipient=\"\(Self.otherReply)\"") == true && again["wctx"] == nil)
            let fresh = try await browser.send("GET", Self.url(idp, [("wa", "wsignin1.0"), ("wtrealm", Self.realm), ("wfresh", "0")]))
            #expect(fresh.status == 200 && fresh.text.contains("name=\"password\""))

            // POST works as GET.
            let posted = try await browser.send("POST", "\(idp.baseURL)/\(EndpointTests.contoso)/wsfed",
                                                form: [("wa", "wsignin1.0"), ("wtrealm", Self.realm), ("wctx", "p")])
            #expect(try Self.posted(posted)["wctx"] == "p")
        }
    }

    @Test("wsfedTokenType saml11 puts a signed SAML 1.1 assertion in the wresult", arguments: MockIdentityProviderMode.allCases)
    func saml11(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            try await Self.addApp(idp, saml: ["wsfedTokenType": "saml11"])
            let browser = Browser(idp)
            let page = try await browser.send("GET", Self.url(idp, [("wa", "wsignin1.0"), ("wtrealm", Self.realm)]))
            let wresult = try #require(try Self.posted(try await browser.submit(page, action: "signin", Self.alice))["wresult"])
            #expect(wresult.contains("<saml:Assertion ") && wresult.contains("MajorVersion=\"1\" MinorVersion=\"1\" AssertionID=\"_"))
            #expect(wresult.contains("Issuer=\"https://sts.windows.net/\(EndpointTests.contoso)/\""))
            #expect(wresult.contains("<saml:AudienceRestrictionCondition><saml:Audience>\(Self.realm)</saml:Audience>"))
            #expect(wresult.contains("AttributeName=\"tenantid\" AttributeNamespace=\"http://schemas.microsoft.com/identity/claims\""))
            #expect(wresult.contains("<t:TokenType>urn:oasis:names:tc:SAML:1.0:assertion</t:TokenType>") && wresult.contains("<SignatureValue>"))
        }
    }

    @Test("a tamper fault goes into the wresult; one a wresult cannot carry waits for a SAML Response", arguments: MockIdentityProviderMode.allCases)
    func tamper(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            try await Self.addApp(idp)
            _ = try await idp.tamperSAML(.wrongDestination, clientID: Self.app)
            _ = try await idp.tamperSAML(.wrongAudience, clientID: Self.app)
            let browser = Browser(idp)
            let page = try await browser.send("GET", Self.url(idp, [("wa", "wsignin1.0"), ("wtrealm", Self.realm)]))
            let wresult = try #require(try Self.posted(try await browser.submit(page, action: "signin", Self.alice))["wresult"])
            #expect(wresult.contains("<Audience>spn:") && wresult.contains("<wsa:Address>\(Self.realm)</wsa:Address>"))
            let pending = try await idp.pendingFaults()
            #expect(pending.count == 1 && pending.first?["tamper"]?.stringValue == "saml-wrong-destination")
        }
    }

    @Test("Entra's refusals on the error page, never posted", arguments: MockIdentityProviderMode.allCases)
    func refusals(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            try await Self.addApp(idp)
            let browser = Browser(idp)
            for (query, code) in [([("wa", "wsignin1.0"), ("wtrealm", "urn:unknown")], "AADSTS700016"),
                                  ([("wa", "wsignin1.0"), ("wtrealm", Self.realm), ("wreply", "https://evil.example.test/")], "AADSTS50011"),
                                  ([("wa", "wsignin1.0")], "AADSTS900144"),
                                  ([("wa", "wattr1.0"), ("wtrealm", Self.realm)], "AADSTS90023"),
                                  ([("wtrealm", Self.realm)], "AADSTS90023")] {
                let refused = try await browser.send("GET", Self.url(idp, query))
                #expect(refused.status == 400 && refused.text.contains(code) && !refused.text.contains("wresult"), "\(query)")
            }
            let tenant = try await browser.send("GET", "\(idp.baseURL)/00000000-0000-0000-0000-0000000000aa/wsfed?wa=wsignin1.0&wtrealm=x")
            #expect(tenant.status == 400 && tenant.text.contains("AADSTS90002"))
        }
    }

    @Test("wsignout1.0 ends the session and returns to a registered wreply, else shows the signed-out page",
          arguments: MockIdentityProviderMode.allCases)
    func signOut(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            try await Self.addApp(idp)
            let browser = Browser(idp)
            let signIn = Self.url(idp, [("wa", "wsignin1.0"), ("wtrealm", Self.realm)])
            _ = try Self.posted(try await browser.submit(try await browser.send("GET", signIn), action: "signin", Self.alice))
            _ = try Self.posted(try await browser.send("GET", signIn))  // the session answers
            let out = try await browser.send("GET", Self.url(idp, [("wa", "wsignout1.0"), ("wreply", Self.reply)]))
            #expect(out.status == 302 && out.headers(named: "Location") == [Self.reply])
            let page = try await browser.send("GET", signIn)
            #expect(page.status == 200 && page.text.contains("name=\"password\""))
            let unregistered = try await browser.send("GET", Self.url(idp, [("wa", "wsignout1.0"), ("wreply", "https://evil.example.test/")]))
            #expect(unregistered.status == 200 && unregistered.text.contains("not a registered reply URL"))
        }
    }
}
