import MockIDPJOSE

/// The signature algorithms a SAML app may sign with (`signingAlgorithm`): RSA with SHA-256, Entra's default, or SHA-1
/// (https://learn.microsoft.com/en-us/entra/identity/enterprise-apps/certificate-signing-options).
package enum XMLSignatureMethod: String, Sendable, CaseIterable {
    /// RSA-SHA256 with a SHA-256 digest.
    case rsaSHA256 = "sha256"
    /// RSA-SHA1 with a SHA-1 digest.
    case rsaSHA1 = "sha1"

    /// The `SignatureMethod` URI (https://www.w3.org/TR/xmldsig-core1/#sec-AlgID).
    package var signatureURI: String {
        switch self {
        case .rsaSHA256: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"
        case .rsaSHA1: "http://www.w3.org/2000/09/xmldsig#rsa-sha1"
        }
    }

    /// The `DigestMethod` URI.
    package var digestURI: String {
        switch self {
        case .rsaSHA256: "http://www.w3.org/2001/04/xmlenc#sha256"
        case .rsaSHA1: "http://www.w3.org/2000/09/xmldsig#sha1"
        }
    }
}

/// The text of an enveloped signature to be filled in by `XMLSigningKey.sign`, shaped as Entra's: the signature
/// namespace as the default (no `ds:` prefix), exclusive canonicalization, the enveloped transform then exclusive
/// canonicalization, and the certificate in `KeyInfo/X509Data/X509Certificate`
/// (https://learn.microsoft.com/en-us/entra/identity-platform/single-sign-on-saml-protocol, Response).
package enum SignatureTemplate {
    /// Exclusive XML canonicalization without comments (https://www.w3.org/TR/xml-exc-c14n/).
    package static let exclusiveCanonicalization = "http://www.w3.org/2001/10/xml-exc-c14n#"
    /// The enveloped-signature transform (https://www.w3.org/TR/xmldsig-core1/#sec-EnvelopedSignature).
    package static let envelopedTransform = "http://www.w3.org/2000/09/xmldsig#enveloped-signature"

    /// A `Signature` over the element whose `ID` is `referenceID`, by `method`, publishing `certificate`.
    package static func xml(referenceID: String, method: XMLSignatureMethod, certificate: Certificate) -> String {
        "<Signature xmlns=\"\(XMLNamespace.signature)\"><SignedInfo>"
            + "<CanonicalizationMethod Algorithm=\"\(exclusiveCanonicalization)\"/>"
            + "<SignatureMethod Algorithm=\"\(method.signatureURI)\"/>"
            + "<Reference URI=\"#\(XMLText.attribute(referenceID))\"><Transforms>"
            + "<Transform Algorithm=\"\(envelopedTransform)\"/><Transform Algorithm=\"\(exclusiveCanonicalization)\"/>"
            + "</Transforms><DigestMethod Algorithm=\"\(method.digestURI)\"/><DigestValue></DigestValue></Reference>"
            + "</SignedInfo><SignatureValue></SignatureValue><KeyInfo><X509Data><X509Certificate>"
            + Base64URL.encodeStandard(certificate.der)
            + "</X509Certificate></X509Data></KeyInfo></Signature>"
    }
}
