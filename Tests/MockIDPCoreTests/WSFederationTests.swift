@testable import MockIDPCore
import MockIDPJOSE
import MockIDPXML
import Testing

/// WS-Federation `wresult`s (docs/saml.md, "WS-Federation"): the WS-Trust envelope in the order of Entra's captured
/// one, the SAML 2.0 or 1.1 assertion inside signed by the app's certificate, and the tamper defects that apply.
@Suite struct WSFederationTests {
    static let realm = "urn:contoso:wsfed-app"
    static let reply = "https://rp.example.test/signin-wsfed"
    static let now = SAMLTamperTests.now
    static let alice = SAMLTamperTests.alice

    func document(_ tokenType: SAMLSettings.WSFedTokenType) throws -> (SAMLResponseDocument, XMLSigningKey) {
        let key = try SAMLTamperTests.key.get()
        var document = SAMLResponseDocument(
            responseID: "_resp", assertionID: "_assert", issueInstant: Self.now, destination: Self.reply, inResponseTo: nil,
            issuer: "https://sts.windows.net/tid/", audience: Self.realm, nameID: Self.alice,
            nameIDFormat: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress", sessionIndex: "_assert", authInstant: Self.now - 60,
            attributes: [("http://schemas.microsoft.com/identity/claims/tenantid", ["tid"]),
                         ("http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name", [Self.alice]), ("department", ["Sales"])],
            signing: .assertion, method: .rsaSHA256, certificate: key.certificate, failure: nil)
        document.envelope = .wsTrust(tokenType, realm: Self.realm)
        return (document, key)
    }

    /// The assertion inside `wresult` as a document of its own, and whether its signature verifies with `certificate`.
    static func verifies(_ wresult: String, _ tokenType: SAMLSettings.WSFedTokenType, _ certificate: Certificate) throws -> Bool {
        let (start, end) = tokenType == .saml11 ? ("<saml:Assertion ", "</saml:Assertion>") : ("<Assertion ", "</Assertion>")
        guard let token = wresult.firstRange(of: "<t:RequestedSecurityToken>"),
              let from = wresult[token.upperBound...].firstRange(of: start), let to = wresult[from.upperBound...].firstRange(of: end) else {
            throw XMLError("no assertion in the RequestedSecurityToken")
        }
        let assertion = try InboundDocument(Array(wresult[from.lowerBound..<to.upperBound].utf8))
        return assertion.hasValidEnvelopedSignature(certificates: [certificate], idAttribute: tokenType == .saml11 ? "AssertionID" : "ID")
    }

    /// The names of `xml`'s elements directly under its root, in order.
    static func childNames(_ xml: String) throws -> [String] {
        try InboundDocument(Array(xml.utf8)).root.children.map(\.name)
    }

    @Test("the SAML 2.0 wresult: Entra's order, the realm, a bearer confirmation to wreply, the assertion signed")
    func saml2() throws {
        let (document, key) = try document(.saml2)
        let wresult = String(decoding: try document.signed(by: key), as: UTF8.self)
        #expect(try Self.verifies(wresult, .saml2, key.certificate))
        #expect(try Self.childNames(wresult) == ["Lifetime", "AppliesTo", "RequestedSecurityToken", "RequestedAttachedReference",
                                                 "RequestedUnattachedReference", "TokenType", "RequestType", "KeyType"])
        #expect(wresult.contains("<wsu:Created xmlns:wsu=\"\(SAMLResponseDocument.utilityNamespace)\">\(SAMLResponseDocument.instant(Self.now - 300))</wsu:Created>"))
        #expect(wresult.contains(">\(SAMLResponseDocument.instant(Self.now + 3600))</wsu:Expires>"))
        #expect(wresult.contains("<wsa:Address>\(Self.realm)</wsa:Address>") && wresult.contains("<Audience>\(Self.realm)</Audience>"))
        #expect(wresult.contains("Recipient=\"\(Self.reply)\"") && !wresult.contains("InResponseTo") && !wresult.contains("samlp:"))
        #expect(wresult.contains("<KeyIdentifier ValueType=\"http://docs.oasis-open.org/wss/oasis-wss-saml-token-profile-1.1#SAMLID\">_assert</KeyIdentifier>"))
        #expect(wresult.contains("<t:KeyType>http://schemas.xmlsoap.org/ws/2005/05/identity/NoProofKey</t:KeyType>"))
    }

    @Test("the SAML 1.1 wresult: MajorVersion 1, AssertionID, split attribute names, the signature last and verifying")
    func saml11() throws {
        let (document, key) = try document(.saml11)
        let wresult = String(decoding: try document.signed(by: key), as: UTF8.self)
        #expect(try Self.verifies(wresult, .saml11, key.certificate))
        #expect(!(try Self.verifies(wresult, .saml11, try SAMLCertificates.make().certificate)))
        #expect(wresult.contains("MajorVersion=\"1\" MinorVersion=\"1\" AssertionID=\"_assert\" Issuer=\"https://sts.windows.net/tid/\""))
        #expect(wresult.contains("AttributeName=\"tenantid\" AttributeNamespace=\"http://schemas.microsoft.com/identity/claims\""))
        #expect(wresult.contains("AttributeName=\"department\" AttributeNamespace=\"urn:oasis:names:tc:SAML:2.0:attrname-format:unspecified\""))
        #expect(wresult.ranges(of: "<saml:NameIdentifier Format=\"urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress\">\(Self.alice)</saml:NameIdentifier>").count == 2)
        #expect(wresult.contains("<saml:ConfirmationMethod>urn:oasis:names:tc:SAML:1.0:cm:bearer</saml:ConfirmationMethod>"))
        #expect(wresult.contains("AuthenticationInstant=\"\(SAMLResponseDocument.instant(Self.now - 60))\""))
        let assertion = try InboundDocument(Array(wresult.utf8)).root.children.first { $0.name == "RequestedSecurityToken" }?.children.first
        #expect(assertion?.namespace == "urn:oasis:names:tc:SAML:1.0:assertion")
        #expect(assertion?.children.map(\.name) == ["Conditions", "AttributeStatement", "AuthenticationStatement", "Signature"])
        #expect(!wresult.contains("Recipient") && !wresult.contains("SessionIndex"))
    }

    @Test("each defect a wresult can carry is in it; the signature verifies unless the defect is about it",
          arguments: SAMLSettings.WSFedTokenType.allCases)
    func defects(_ tokenType: SAMLSettings.WSFedTokenType) throws {
        let (document, key) = try document(tokenType)
        let clean = String(decoding: try document.signed(by: key), as: UTF8.self)
        for defect in SAMLDefect.allCases where defect.appliesToWSFederation(tokenType) {
            let xml = String(decoding: try document.signed(by: key, defect: defect, inputs: SAMLTamperInputs.fixed), as: UTF8.self)
            #expect(xml != clean, "\(defect)")
            #expect(xml.hasPrefix("<t:RequestSecurityTokenResponse "), "\(defect)")
            let signatureHolds = ![.unsigned, .badSignature, .foreignKey].contains(defect)
            if defect != .unsigned && defect != .signatureWrapping {
                #expect(try Self.verifies(xml, tokenType, key.certificate) == signatureHolds, "\(defect)")
            }
            switch defect {
            case .signatureWrapping:
                // The forged assertion sits in RequestedSecurityToken, unsigned; the signed one before it.
                #expect(!(try Self.verifies(xml, tokenType, key.certificate)))
                #expect(xml.contains("bob@contoso.onmicrosoft.com") && xml.ranges(of: "<SignatureValue>").count == 1)
            case .wrongAudience:
                #expect(xml.contains("spn:0f0e0d0c-0b0a-4908-8706-050403020100") && xml.contains("<wsa:Address>\(Self.realm)</wsa:Address>"))
            case .expired:
                #expect(xml.contains(">\(SAMLResponseDocument.instant(Self.now - 600))</wsu:Expires>"))
            default:
                break
            }
        }
        #expect(!SAMLDefect.wrongDestination.appliesToWSFederation(tokenType) && !SAMLDefect.wrongInResponseTo.appliesToWSFederation(tokenType))
        #expect(SAMLDefect.wrongRecipient.appliesToWSFederation(tokenType) == (tokenType == .saml2))
    }
}

extension SAMLTamperInputs {
    static let fixed = SAMLTamperTests.inputs
}
