import MockIDPJOSE

/// The HTTP-Redirect binding's signature: over the query string's `SAMLRequest` (or `SAMLResponse`), `RelayState` and
/// `SigAlg` parameters as they were sent, still URL-encoded, joined with `&`
/// (https://docs.oasis-open.org/security/saml/v2.0/saml-bindings-2.0-os.pdf, section 3.4.4.1).
package enum RedirectSignature {
    /// The text signed: `name=value` pairs, as received, in the binding's order.
    package static func signedText(message: (name: String, encodedValue: String), relayState: String?, sigAlg: String) -> String {
        var text = message.name + "=" + message.encodedValue
        if let relayState { text += "&RelayState=" + relayState }
        return text + "&SigAlg=" + sigAlg
    }

    /// Whether `signature` over `signedText` verifies with one of `certificates` by `algorithmURI`. Only RSA-SHA256 is
    /// accepted, as Entra accepts only it for signed requests
    /// (https://learn.microsoft.com/en-us/entra/identity/enterprise-apps/howto-enforce-signed-saml-authentication).
    package static func verify(signedText: String, signature: [UInt8], algorithmURI: String, certificates: [Certificate]) -> Bool {
        guard algorithmURI == XMLSignatureMethod.rsaSHA256.signatureURI else { return false }
        let bytes = Array(signedText.utf8)
        return certificates.contains { $0.publicKey.verify(signature: signature, for: bytes, algorithm: .rs256) }
    }

    /// The signature of `signedText` by `key` with `method` (RSA-SHA256 unless said), for a message mockidp sends over
    /// the redirect binding.
    package static func sign(signedText: String, key: PrivateKey, method: XMLSignatureMethod = .rsaSHA256) throws(OpenSSLError) -> [UInt8] {
        switch method {
        case .rsaSHA256: try key.sign(Array(signedText.utf8), algorithm: .rs256)
        case .rsaSHA1: try key.signRSASHA1(Array(signedText.utf8))
        }
    }
}
