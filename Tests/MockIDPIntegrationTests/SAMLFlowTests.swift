import Foundation
import MockIDPJOSE
import MockIDPTesting
import MockIDPXML
import Testing

/// SAML 2.0 sign-on over HTTP (docs/saml.md), in both modes: the federation metadata, an `AuthnRequest` over the
/// HTTP-POST binding through the ordinary sign-in page to the auto-submitting form, the browser session shared, and
/// Entra's refusals on the error page or in a Response's status.
@Suite struct SAMLFlowTests {
    static let app = "4d2c6b1e-9a3f-4e7d-8c5b-0f1e2d3c4b5a"
    static let entity = "https://sp.example.test/saml/metadata"
    static let acs = "https://sp.example.test/saml/acs"

    static func addApp(_ idp: MockIdentityProvider, saml: JSONObject = ["signing": "both"]) async throws {
        try await idp.addApp(MockApp(clientID: app, name: "Contoso SAML SP", redirectURIs: [acs], identifierURIs: [entity],
                                     settings: ["saml": .object(saml)]), tenant: EndpointTests.contoso)
    }

    /// An `AuthnRequest`; `extra` goes inside it, `attributes` on it.
    static func request(id: String = "_req1", issuer: String = entity, attributes: String = "", extra: String = "") -> String {
        "<samlp:AuthnRequest xmlns:samlp=\"urn:oasis:names:tc:SAML:2.0:protocol\" ID=\"\(id)\" Version=\"2.0\" "
            + "IssueInstant=\"2026-01-01T00:00:00Z\" AssertionConsumerServiceURL=\"\(acs)\"\(attributes)>"
            + "<saml:Issuer xmlns:saml=\"urn:oasis:names:tc:SAML:2.0:assertion\">\(issuer)</saml:Issuer>\(extra)</samlp:AuthnRequest>"
    }

    /// Posts `xml` to the saml2 endpoint over the HTTP-POST binding.
    static func post(_ browser: Browser, _ idp: MockIdentityProvider, _ xml: String, relayState: String = "rs-1") async throws -> MockIDPResponse {
        try await browser.send("POST", "\(idp.baseURL)/\(EndpointTests.contoso)/saml2",
                               form: [("SAMLRequest", Data(xml.utf8).base64EncodedString()), ("RelayState", relayState)])
    }

    /// The auto-submitting form's SAMLResponse, decoded, and its RelayState.
    static func answer(_ page: MockIDPResponse) throws -> (xml: String, relayState: String?) {
        let html = page.text
        guard html.contains("action=\"\(acs)\""),
              let response = html.firstMatch(of: /name="SAMLResponse" value="([^"]*)"/)?.output.1,
              let bytes = Data(base64Encoded: Browser.unescape(String(response))) else {
            throw MockIDPTestError("no SAMLResponse form to the ACS: \(html.prefix(400))")
        }
        let relay = html.firstMatch(of: /name="RelayState" value="([^"]*)"/).map { Browser.unescape(String($0.output.1)) }
        return (String(decoding: bytes, as: UTF8.self), relay)
    }

    @Test("metadata, then sign-on over HTTP-POST through the sign-in page; the session answers the next request", arguments: MockIdentityProviderMode.allCases)
    func signOn(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            try await Self.addApp(idp)
            let metadata = try await idp.get("/\(EndpointTests.contoso)/FederationMetadata/2007-06/FederationMetadata.xml?appid=\(Self.app)")
            #expect(metadata.status == 200 && metadata.body.starts(with: [0xEF, 0xBB, 0xBF]))
            #expect(metadata.text.contains("entityID=\"https://sts.windows.net/\(EndpointTests.contoso)/\""))

            let browser = Browser(idp)
            let page = try await Self.post(browser, idp, Self.request())
            #expect(page.status == 200 && page.text.contains("Contoso SAML SP"))
            let posted = try await browser.submit(page, action: "signin",
                                                  [("username", "alice@contoso.onmicrosoft.com"), ("password", "alice-password")])
            let (xml, relayState) = try Self.answer(posted)
            #expect(relayState == "rs-1")
            #expect(xml.hasPrefix("<samlp:Response ") && xml.contains(" ID=\"_") && xml.contains("InResponseTo=\"_req1\"") && xml.contains("Destination=\"\(Self.acs)\""))
            #expect(xml.components(separatedBy: "<SignatureValue>").count == 3, "signing: both signs the Response and the assertion")
            #expect(xml.contains("<NameID Format=\"urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress\">alice@contoso.onmicrosoft.com</NameID>"))
            #expect(xml.contains("<Audience>\(Self.entity)</Audience>") && xml.contains("Recipient=\"\(Self.acs)\""))
            #expect(xml.contains("Name=\"http://schemas.microsoft.com/ws/2008/06/identity/claims/role\"><AttributeValue>Admin</AttributeValue>"))

            // Signed in: the next request is answered without a page; ForceAuthn asks again; IsPassive without a
            // session (another browser) answers NoPassive.
            let again = try Self.answer(try await Self.post(browser, idp, Self.request(id: "_req2"), relayState: "rs-2"))
            #expect(again.xml.contains("InResponseTo=\"_req2\"") && again.relayState == "rs-2")
            let forced = try await Self.post(browser, idp, Self.request(id: "_req3", attributes: " ForceAuthn=\"true\""))
            #expect(forced.status == 200 && forced.text.contains("name=\"password\""))
            let passive = try Self.answer(try await Self.post(Browser(idp), idp, Self.request(id: "_req4", attributes: " IsPassive=\"true\"")))
            #expect(passive.xml.contains("urn:oasis:names:tc:SAML:2.0:status:Responder") && passive.xml.contains("urn:oasis:names:tc:SAML:2.0:status:NoPassive"))
        }
    }

    @Test("a SAML tamper fault goes into the app's next Response only; mixed-up token kinds are refused", arguments: MockIdentityProviderMode.allCases)
    func tamper(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            try await Self.addApp(idp, saml: [:])
            let fault = try await idp.tamperSAML(.wrongAudience, clientID: Self.app)
            #expect(fault["tamper"]?.stringValue == "saml-wrong-audience" && fault["token"]?.stringValue == "saml")
            #expect(try await idp.pendingFaults().contains { $0["tamper"]?.stringValue == "saml-wrong-audience" })
            for (body, problem) in [("{\"tamper\": \"saml-unsigned\", \"token\": \"id\"}", "applies to SAML Responses only"),
                                    ("{\"tamper\": \"bad-signature\", \"token\": \"saml\"}", "is a JWT defect"),
                                    ("{\"tamper\": \"saml-nothing\", \"token\": \"saml\"}", "saml-xsw")] {
                let refused = try await idp.postJSON("/_mockidp/faults", text: body)
                #expect(refused.status == 400 && refused.text.contains(problem), "\(body): \(refused.text)")
            }

            let browser = Browser(idp)
            let page = try await Self.post(browser, idp, Self.request())
            let posted = try await browser.submit(page, action: "signin",
                                                  [("username", "alice@contoso.onmicrosoft.com"), ("password", "alice-password")])
            let tampered = try Self.answer(posted).xml
            #expect(tampered.contains("<Audience>spn:") && !tampered.contains("<Audience>\(Self.entity)</Audience>"))
            #expect(tampered.contains("InResponseTo=\"_req1\"") && tampered.contains("<SignatureValue>"))
            #expect(try await idp.pendingFaults().isEmpty)
            let clean = try Self.answer(try await Self.post(browser, idp, Self.request(id: "_req2"))).xml
            #expect(clean.contains("<Audience>\(Self.entity)</Audience>"))
        }
    }

    @Test("Entra's refusals: on the error page, or InvalidNameIDPolicy in a posted Response", arguments: MockIdentityProviderMode.allCases)
    func refusals(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            try await Self.addApp(idp, saml: [:])
            let browser = Browser(idp)
            let unknown = try await Self.post(browser, idp, Self.request(issuer: "https://unknown.example.test"))
            #expect(unknown.status == 400 && unknown.text.contains("AADSTS700016") && !unknown.text.contains("SAMLResponse"))
            let digit = try await Self.post(browser, idp, Self.request(id: "1abc"))
            #expect(digit.status == 400 && digit.text.contains("AADSTS75005"))
            let subject = try await Self.post(browser, idp, Self.request(extra: "<saml:Subject xmlns:saml=\"urn:oasis:names:tc:SAML:2.0:assertion\"/>"))
            #expect(subject.status == 400 && subject.text.contains("AADSTS75005") && subject.text.contains("Subject"))
            let acs = try await Self.post(browser, idp, Self.request().replacingOccurrences(of: Self.acs, with: "https://evil.example.test/acs"))
            #expect(acs.status == 400 && acs.text.contains("AADSTS50011"))
            let bomb = try await Self.post(browser, idp, "<!DOCTYPE r [<!ENTITY x \"y\">]>" + Self.request())
            #expect(bomb.status == 400 && bomb.text.contains("document type declaration"))
            let missing = try await browser.send("GET", "\(idp.baseURL)/\(EndpointTests.contoso)/saml2")
            #expect(missing.status == 400 && missing.text.contains("AADSTS750054"))
            let policy = try Self.answer(try await Self.post(browser, idp, Self.request(
                extra: "<samlp:NameIDPolicy Format=\"urn:oasis:names:tc:SAML:2.0:nameid-format:kerberos\"/>")))
            #expect(policy.xml.contains("status:Requester") && policy.xml.contains("status:InvalidNameIDPolicy") && !policy.xml.contains("<Assertion"))
        }
    }

    @Test("IdP-initiated sign-on posts an unsolicited Response to the first reply URL with the RelayState given or configured",
          arguments: MockIdentityProviderMode.allCases)
    func idpInitiated(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            try await Self.addApp(idp, saml: ["relayState": "/home"])
            let browser = Browser(idp)
            let launch = "\(idp.baseURL)/\(EndpointTests.contoso)/saml2?appid=\(Self.app)"
            let page = try await browser.send("GET", launch + "&RelayState=from-my-apps")
            let posted = try await browser.submit(page, action: "signin",
                                                  [("username", "alice@contoso.onmicrosoft.com"), ("password", "alice-password")])
            let (xml, relayState) = try Self.answer(posted)
            #expect(relayState == "from-my-apps" && !xml.contains("InResponseTo") && xml.contains("<Audience>\(Self.entity)</Audience>"))
            let configured = try Self.answer(try await browser.send("GET", launch))
            #expect(configured.relayState == "/home")
            let unknown = try await browser.send("GET", "\(idp.baseURL)/\(EndpointTests.contoso)/saml2?appid=00000000-0000-0000-0000-000000000001")
            #expect(unknown.status == 400 && unknown.text.contains("AADSTS700016"))
        }
    }

    @Test("single logout: a LogoutRequest ends the browser session and redirects to the logoutUrl with a signed LogoutResponse",
          arguments: MockIdentityProviderMode.allCases)
    func singleLogout(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            let sls = "https://sp.example.test/saml/sls"
            try await Self.addApp(idp, saml: ["logoutUrl": .string(sls)])
            let browser = Browser(idp)
            let page = try await Self.post(browser, idp, Self.request())
            _ = try Self.answer(try await browser.submit(page, action: "signin",
                                                         [("username", "alice@contoso.onmicrosoft.com"), ("password", "alice-password")]))
            let session = try #require(browser.cookies["mockidp_session"])
            #expect(try Self.answer(try await Self.post(browser, idp, Self.request(id: "_req2"))).xml.contains("InResponseTo=\"_req2\""))

            let logout = "<samlp:LogoutRequest xmlns:samlp=\"urn:oasis:names:tc:SAML:2.0:protocol\" ID=\"_lr1\" Version=\"2.0\" "
                + "IssueInstant=\"2026-01-01T00:00:00Z\"><saml:Issuer xmlns:saml=\"urn:oasis:names:tc:SAML:2.0:assertion\">\(Self.entity)</saml:Issuer>"
                + "<saml:NameID xmlns:saml=\"urn:oasis:names:tc:SAML:2.0:assertion\">alice@contoso.onmicrosoft.com</saml:NameID></samlp:LogoutRequest>"
            let message = Data(try RawDeflate.deflate(Array(logout.utf8))).base64EncodedString()
            let saml2 = "\(idp.baseURL)/\(EndpointTests.contoso)/saml2"
            let reply = try await browser.send("GET", saml2 + "?" + formEncoded([("SAMLRequest", message), ("RelayState", "bye")]))
            let location = try #require(reply.header("Location"))
            #expect(reply.status == 302 && location.hasPrefix(sls + "?SAMLResponse="), "\(reply.status) \(reply.text.prefix(300))")
            #expect(location.contains("&RelayState=bye&SigAlg=http%3A%2F%2Fwww.w3.org%2F2001%2F04%2Fxmldsig-more%23rsa-sha256&Signature="))
            let query = try #require(URLComponents(string: location)?.queryItems)
            let samlResponse = try #require(query.first { $0.name == "SAMLResponse" }?.value)
            let deflated = try #require(Data(base64Encoded: samlResponse))
            let xml = String(decoding: try RawDeflate.inflate(Array(deflated)), as: UTF8.self)
            #expect(xml.hasPrefix("<samlp:LogoutResponse ID=\"_") && xml.contains("InResponseTo=\"_lr1\"") && xml.contains("Destination=\"\(sls)\""))
            #expect(xml.contains(">https://login.microsoftonline.com/\(EndpointTests.contoso)/</Issuer>") && xml.contains("status:Success"))
            #expect(browser.cookies["mockidp_session"] == "", "the session cookie is cleared")

            // The session is over on the server too: its old cookie brings the sign-in page again.
            browser.cookies["mockidp_session"] = session
            let again = try await Self.post(browser, idp, Self.request(id: "_req3"))
            #expect(again.status == 200 && again.text.contains("name=\"password\"") && !again.text.contains("SAMLResponse"))

            // Over HTTP-POST, Entra refuses single logout.
            let posted = try await browser.send("POST", saml2, form: [("SAMLRequest", Data(logout.utf8).base64EncodedString())])
            #expect(posted.status == 400 && posted.text.contains("AADSTS750054"))
        }
    }

    @Test("a rotation publishes both certificates in the app's metadata until the old one is retired", arguments: MockIdentityProviderMode.allCases)
    func rotation(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            try await Self.addApp(idp)
            let path = "/\(EndpointTests.contoso)/federationmetadata/2007-06/federationmetadata.xml?appid=\(Self.app)"
            func certificates() async throws -> Int {
                try await idp.get(path).text.components(separatedBy: "<KeyDescriptor use=\"signing\">").count - 1
            }
            #expect(try await certificates() == 2)  // one certificate, in the WS-Fed and the SAML role
            let rotated = try await idp.rotateSAMLCertificate(tenant: EndpointTests.contoso, clientID: Self.app)
            #expect(rotated["thumbprints"]?.arrayValue?.count == 2)
            #expect(try await certificates() == 4)
            let retired = try await idp.retireKeys()
            #expect(retired["retiredSamlCertificates"]?.arrayValue?.count == 1)
            #expect(try await certificates() == 2)
        }
    }
}
