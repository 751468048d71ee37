import Foundation
import MockIDPJOSE
import MockIDPXML
import Testing

/// Keys made once for the suite (RSA generation is slow on a small machine).
enum TestKeys {
    static let key = try! PrivateKey.generateRSA()
    static let certificate = try! Certificate.selfSigned(key: key, commonName: "Microsoft Azure Federated SSO Certificate", validityDays: 1095)
    static let signer = try! XMLSigningKey(privateKey: key, certificate: certificate)
    static let otherKey = try! PrivateKey.generateRSA()
    static let otherCertificate = try! Certificate.selfSigned(key: otherKey, commonName: "Another", validityDays: 1)
}

/// A small SAML request-like document with a signature template over its root.
func signedRequestXML(id: String = "_abc123", method: XMLSignatureMethod = .rsaSHA256) -> String {
    "<samlp:AuthnRequest xmlns:samlp=\"\(XMLNamespace.protocolMessages)\" ID=\"\(id)\" Version=\"2.0\" IssueInstant=\"2026-01-01T00:00:00Z\">"
        + "<Issuer xmlns=\"\(XMLNamespace.assertion)\">https://sp.contoso.com</Issuer>"
        + SignatureTemplate.xml(referenceID: id, method: method, certificate: TestKeys.certificate)
        + "<samlp:NameIDPolicy Format=\"urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress\"/>"
        + "</samlp:AuthnRequest>"
}

@Suite struct SigningTests {
    @Test("a signed document verifies with its certificate, by SHA-256 and by SHA-1", arguments: XMLSignatureMethod.allCases)
    func roundTrip(method: XMLSignatureMethod) throws {
        let signed = try TestKeys.signer.sign(signedRequestXML(method: method), declaration: false)
        let text = String(decoding: signed, as: UTF8.self)
        #expect(text.hasPrefix("<samlp:AuthnRequest"))
        #expect(text.contains("<SignatureMethod Algorithm=\"\(method.signatureURI)\"/>"))
        #expect(!text.contains("<DigestValue></DigestValue>") && !text.contains("<DigestValue/>"))
        #expect(!text.contains("<SignatureValue></SignatureValue>") && !text.contains("<SignatureValue/>"))
        let document = try InboundDocument(signed)
        #expect(document.hasValidEnvelopedSignature(certificates: [TestKeys.certificate]))
        #expect(document.hasValidEnvelopedSignature(certificates: [TestKeys.otherCertificate, TestKeys.certificate]))
        #expect(!document.hasValidEnvelopedSignature(certificates: [TestKeys.otherCertificate]))
    }

    @Test("the declaration is written only when asked for")
    func declaration() throws {
        let signed = String(decoding: try TestKeys.signer.sign(signedRequestXML(), declaration: true), as: UTF8.self)
        #expect(signed.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"))
    }

    @Test("a changed byte in the signed content fails verification")
    func tampered() throws {
        let signed = String(decoding: try TestKeys.signer.sign(signedRequestXML(), declaration: false), as: UTF8.self)
        let tampered = signed.replacingOccurrences(of: "https://sp.contoso.com", with: "https://sp.fabrikam.com")
        let document = try InboundDocument(Array(tampered.utf8))
        #expect(!document.hasValidEnvelopedSignature(certificates: [TestKeys.certificate]))
    }

    @Test("a signature over another element than the root is not the root's signature")
    func referenceElsewhere() throws {
        let inner = "<Issuer xmlns=\"\(XMLNamespace.assertion)\" ID=\"_inner\">x</Issuer>"
        let xml = "<samlp:AuthnRequest xmlns:samlp=\"\(XMLNamespace.protocolMessages)\" ID=\"_outer\">" + inner
            + SignatureTemplate.xml(referenceID: "_inner", method: .rsaSHA256, certificate: TestKeys.certificate) + "</samlp:AuthnRequest>"
        let signed = try TestKeys.signer.sign(xml, declaration: false)
        #expect(!(try InboundDocument(signed)).hasValidEnvelopedSignature(certificates: [TestKeys.certificate]))
    }

    @Test("an unsigned document has no valid signature")
    func unsigned() throws {
        let xml = "<samlp:AuthnRequest xmlns:samlp=\"\(XMLNamespace.protocolMessages)\" ID=\"_a\"/>"
        #expect(!(try InboundDocument(Array(xml.utf8))).hasValidEnvelopedSignature(certificates: [TestKeys.certificate]))
    }

    @Test("an inner signature, then an outer one over it, both verify")
    func nested() throws {
        let assertion = "<Assertion xmlns=\"\(XMLNamespace.assertion)\" ID=\"_inner\"><Issuer>i</Issuer>"
            + SignatureTemplate.xml(referenceID: "_inner", method: .rsaSHA256, certificate: TestKeys.certificate)
            + "<Subject/></Assertion>"
        let xml = "<samlp:Response xmlns:samlp=\"\(XMLNamespace.protocolMessages)\" ID=\"_outer\"><Issuer xmlns=\"\(XMLNamespace.assertion)\">i</Issuer>"
            + SignatureTemplate.xml(referenceID: "_outer", method: .rsaSHA256, certificate: TestKeys.certificate)
            + assertion + "</samlp:Response>"
        let signed = try TestKeys.signer.sign(xml, declaration: false)
        let document = try InboundDocument(signed)
        #expect(document.hasValidEnvelopedSignature(certificates: [TestKeys.certificate]))
        try XMLSec1Tool.verify(signed, ids: ["\(XMLNamespace.protocolMessages):Response", "\(XMLNamespace.assertion):Assertion"])
    }

    @Test("the xmlsec1 command verifies what this module signs", arguments: XMLSignatureMethod.allCases)
    func independentVerifier(method: XMLSignatureMethod) throws {
        let signed = try TestKeys.signer.sign(signedRequestXML(method: method), declaration: true)
        try XMLSec1Tool.verify(signed, ids: ["\(XMLNamespace.protocolMessages):AuthnRequest"])
    }

    @Test("a redirect-binding signature verifies over the text signed, with RSA-SHA256 only")
    func redirect() throws {
        let text = RedirectSignature.signedText(message: ("SAMLRequest", "abc%2B"), relayState: "r%2F", sigAlg: "http%3A%2F%2Fx")
        #expect(text == "SAMLRequest=abc%2B&RelayState=r%2F&SigAlg=http%3A%2F%2Fx")
        let signature = try RedirectSignature.sign(signedText: text, key: TestKeys.key)
        let sha256 = XMLSignatureMethod.rsaSHA256.signatureURI
        #expect(RedirectSignature.verify(signedText: text, signature: signature, algorithmURI: sha256, certificates: [TestKeys.certificate]))
        #expect(!RedirectSignature.verify(signedText: text + "x", signature: signature, algorithmURI: sha256, certificates: [TestKeys.certificate]))
        #expect(!RedirectSignature.verify(signedText: text, signature: signature, algorithmURI: sha256, certificates: [TestKeys.otherCertificate]))
        #expect(!RedirectSignature.verify(signedText: text, signature: signature, algorithmURI: XMLSignatureMethod.rsaSHA1.signatureURI, certificates: [TestKeys.certificate]))
    }
}

/// The `xmlsec1` command (Debian's `xmlsec1`), an independent verifier; the tests that use it fail when it is missing,
/// as scripts/setup installs it.
enum XMLSec1Tool {
    /// Verifies the first signature of `signed`, the elements `ids` names (`namespace:name`) having `ID` attributes.
    static func verify(_ signed: [UInt8], ids: [String]) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mockidp-xml-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let document = directory.appendingPathComponent("signed.xml"), certificate = directory.appendingPathComponent("cert.pem")
        try Data(signed).write(to: document)
        try Data(TestKeys.certificate.pem.utf8).write(to: certificate)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xmlsec1", "--verify", "--enabled-reference-uris", "same-doc"] + ids.flatMap { ["--id-attr:ID", $0] }
            + ["--pubkey-cert-pem", certificate.path, document.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "xmlsec1 --verify: \(text)")
        #expect(text.contains("OK"), "xmlsec1 --verify: \(text)")
    }
}
