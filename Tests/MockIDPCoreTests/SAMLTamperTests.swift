@testable import MockIDPCore
import MockIDPJOSE
import MockIDPXML
import Testing

/// SAML Responses with exactly one defect (docs/saml.md, "Tamper defects"): each carries its defect, and its
/// assertion's signature verifies with the app's certificate unless the defect is about the signature.
@Suite struct SAMLTamperTests {
    static let key = Result { try SAMLCertificates.make() }
    static let now = 1_800_000_000
    static let alice = "alice@contoso.onmicrosoft.com"

    func document() throws -> (SAMLResponseDocument, XMLSigningKey) {
        let key = try Self.key.get()
        let document = SAMLResponseDocument(
            responseID: "_resp", assertionID: "_assert", issueInstant: Self.now, destination: "https://sp.example.test/saml/acs",
            inResponseTo: "_req1", issuer: "https://sts.windows.net/tid/", audience: "https://sp.example.test/saml/metadata",
            nameID: Self.alice, nameIDFormat: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress", sessionIndex: "_assert",
            authInstant: Self.now - 60, attributes: [("http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name", [Self.alice])],
            signing: .assertion, method: .rsaSHA256, certificate: key.certificate, failure: nil)
        return (document, key)
    }

    static let inputs = SAMLTamperInputs(newGUID: { "0f0e0d0c-0b0a-4908-8706-050403020100" }, otherNameID: "bob@contoso.onmicrosoft.com")

    /// The first `Assertion` element of `xml` as a document of its own (exclusive c14n makes its signature the same).
    static func firstAssertion(_ xml: String) throws -> InboundDocument {
        guard let start = xml.firstRange(of: "<Assertion "), let end = xml[start.upperBound...].firstRange(of: "</Assertion>") else {
            throw XMLError("no assertion")
        }
        return try InboundDocument(Array(xml[start.lowerBound..<end.upperBound].utf8))
    }

    static func verifies(_ xml: String, _ certificate: Certificate) throws -> Bool {
        try firstAssertion(xml).hasValidEnvelopedSignature(certificates: [certificate])
    }

    @Test("the clean Response's assertion verifies with the app's certificate")
    func clean() throws {
        let (document, key) = try document()
        let xml = String(decoding: try document.signed(by: key), as: UTF8.self)
        #expect(try Self.verifies(xml, key.certificate))
        #expect(xml.contains(">\(Self.alice)</NameID>") && xml.contains("InResponseTo=\"_req1\""))
    }

    @Test("each defect is in its Response; the signature verifies unless the defect is about it", arguments: SAMLDefect.allCases)
    func defect(_ defect: SAMLDefect) throws {
        let (document, key) = try document()
        let clean = String(decoding: try document.signed(by: key), as: UTF8.self)
        let xml = String(decoding: try document.signed(by: key, defect: defect, inputs: Self.inputs), as: UTF8.self)
        let signatureHolds = ![.unsigned, .badSignature, .foreignKey].contains(defect)
        if defect != .unsigned { #expect(try Self.verifies(xml, key.certificate) == signatureHolds) }
        let unchanged = { (part: String) in clean.contains(part) && xml.contains(part) }
        switch defect {
        case .unsigned:
            #expect(!xml.contains("<Signature") && xml.contains(">\(Self.alice)</NameID>"))
        case .badSignature:
            #expect(!xml.contains("SessionIndex=\"_assert\"") && unchanged("<DigestValue>"))
        case .foreignKey:
            let published = Base64URL.encodeStandard(key.certificate.der)
            #expect(clean.contains(published) && !xml.contains(published) && xml.contains("<X509Certificate>"))
        case .wrongIssuer:
            #expect(xml.contains("<Issuer>https://issuer.invalid/tid/</Issuer>") && !xml.contains("sts.windows.net/tid/</Issuer>"))
        case .wrongAudience:
            #expect(xml.contains("<Audience>spn:0f0e0d0c-0b0a-4908-8706-050403020100</Audience>"))
        case .wrongRecipient:
            #expect(xml.contains("Recipient=\"https://recipient.invalid/saml/acs\"") && unchanged("Destination=\"https://sp.example.test/saml/acs\""))
        case .wrongDestination:
            #expect(xml.contains("Destination=\"https://destination.invalid/saml/acs\"") && unchanged("Recipient=\"https://sp.example.test/saml/acs\""))
        case .wrongInResponseTo:
            #expect(!xml.contains("_req1") && xml.ranges(of: "InResponseTo=\"_0f0e0d0c-0b0a-4908-8706-050403020100\"").count == 2)
        case .expired:
            #expect(xml.contains("NotOnOrAfter=\"\(SAMLResponseDocument.instant(Self.now - 600))\""))
            #expect(!xml.contains(SAMLResponseDocument.instant(Self.now)))
        case .notYetValid:
            #expect(xml.contains("NotBefore=\"\(SAMLResponseDocument.instant(Self.now + 600))\""))
            #expect(unchanged("IssueInstant=\"\(SAMLResponseDocument.instant(Self.now))\""))
        case .signatureWrapping:
            #expect(xml.contains("<samlp:Extensions><Assertion xmlns=\"\(XMLNamespace.assertion)\" ID=\"_assert\""))
            #expect(xml.ranges(of: "<Assertion ").count == 2 && xml.ranges(of: "<Signature ").count == 1)
            #expect(xml.contains("</samlp:Extensions><samlp:Status>"))
            #expect(xml.contains(">bob@contoso.onmicrosoft.com</NameID>") && xml.contains(">\(Self.alice)</NameID>"))
            _ = try InboundDocument(Array(xml.utf8))
        case .commentInNameID:
            #expect(xml.contains(">alice@contoso<!---->.onmicrosoft.com</NameID>"))
            #expect(try Self.firstAssertion(xml).root.child(XMLNamespace.assertion, "Subject")?.child(XMLNamespace.assertion, "NameID")?.text == Self.alice)
        }
    }

    /// The Response itself (its root) verifies with `certificate`.
    static func responseVerifies(_ xml: String, _ certificate: Certificate) throws -> Bool {
        try InboundDocument(Array(xml.utf8)).hasValidEnvelopedSignature(certificates: [certificate])
    }

    @Test("with the Response signed (signing: response or both), each defect keeps or breaks that signature as it should",
          arguments: [SAMLSettings.Signing.response, .both], SAMLDefect.allCases)
    func responseSigning(_ signing: SAMLSettings.Signing, _ defect: SAMLDefect) throws {
        let (original, key) = try document()
        var document = original
        document.signing = signing
        let clean = String(decoding: try document.signed(by: key), as: UTF8.self)
        #expect(try Self.responseVerifies(clean, key.certificate))
        #expect(try Self.verifies(clean, key.certificate) == (signing == .both))
        let xml = String(decoding: try document.signed(by: key, defect: defect, inputs: Self.inputs), as: UTF8.self)
        switch defect {
        case .unsigned:
            #expect(!xml.contains("<Signature"))
        case .badSignature, .foreignKey:
            #expect(try !Self.responseVerifies(xml, key.certificate))
            if signing == .both { #expect(try !Self.verifies(xml, key.certificate)) }
        case .signatureWrapping:
            // The wrapping attack needs a signed assertion: only the assertion is signed (docs/saml.md, "Tamper defects").
            #expect(try !Self.responseVerifies(xml, key.certificate))
            #expect(xml.ranges(of: "<Signature ").count == 1 && xml.contains("<samlp:Extensions><Assertion "))
        default:
            // A content defect is made before signing: every signature the app asks for covers it and verifies.
            #expect(try Self.responseVerifies(xml, key.certificate))
            #expect(try Self.verifies(xml, key.certificate) == (signing == .both))
            #expect(xml != clean)
        }
    }
}
