import CXMLSec
import MockIDPJOSE

/// A key that signs XML and the certificate published with it (in each signature's `KeyInfo`), loaded into xmlsec once.
package final class XMLSigningKey: @unchecked Sendable {
    /// The private key.
    package let privateKey: PrivateKey
    /// Its certificate.
    package let certificate: Certificate
    /// The key as xmlsec holds it, read only after loading (each signature signs with a copy).
    private let loaded: EnvelopedSignature.OwnedKey

    /// `privateKey` with its `certificate`; throws when xmlsec cannot load the key.
    package init(privateKey: PrivateKey, certificate: Certificate) throws(XMLError) {
        self.privateKey = privateKey
        self.certificate = certificate
        let pem: String
        do { pem = try privateKey.pkcs8PEM } catch { throw XMLError("the signing key could not be written as PEM: \(error)") }
        loaded = try EnvelopedSignature.OwnedKey.privateKey(pem: pem)
    }

    /// Signs every signature template in `xml` (those `SignatureTemplate` writes; a reference names an `ID` or a SAML
    /// 1.1 `AssertionID`), the innermost first so that an
    /// outer signature covers the inner one's final bytes, and returns the document written out once: these bytes are
    /// the ones to send, never parsed and written again.
    package func sign(_ xml: String, declaration: Bool) throws(XMLError) -> [UInt8] {
        let document = try OwnedDocument.parse(Array(xml.utf8))
        guard let root = document.root else { throw XMLError("the XML to sign has no root element") }
        document.registerIDs()
        document.registerIDs("AssertionID")
        let templates = OwnedDocument.descendants(of: root, XMLNamespace.signature, "Signature")
        guard !templates.isEmpty else { throw XMLError("the XML to sign has no signature template") }
        for template in templates.reversed() {
            try EnvelopedSignature.sign(template, key: loaded)
        }
        return try document.serialized(declaration: declaration)
    }
}
