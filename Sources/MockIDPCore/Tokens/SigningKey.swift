import MockIDPJOSE

/// A token-signing key as Entra publishes it: an RSA key with a self-signed certificate; `kid` = `x5t` =
/// base64url SHA-1 thumbprint of the certificate (reference/entra-protocol.md §6).
public final class SigningKey: Sendable {
    public let privateKey: PrivateKey
    public let certificate: Certificate
    /// `kid` and `x5t`.
    public let keyID: String

    public init(privateKey: PrivateKey, certificate: Certificate) {
        self.privateKey = privateKey
        self.certificate = certificate
        self.keyID = Base64URL.encode(certificate.sha1Thumbprint)
    }

    /// A new RSA-2048 signing key with a self-signed certificate whose subject is the one Entra's signing
    /// certificates carry (reference/entra-protocol.md §6).
    public static func generate(validityDays: Int = 3650) throws(OpenSSLError) -> SigningKey {
        let key = try PrivateKey.generateRSA(bits: 2048)
        let certificate = try Certificate.selfSigned(key: key, commonName: "accounts.accesscontrol.windows.net",
                                                     validityDays: validityDays)
        return SigningKey(privateKey: key, certificate: certificate)
    }

    /// The key as a JWK; `issuer` is Entra's non-standard member (v2 key sets only).
    public func jsonWebKey(issuer: String?) throws(OpenSSLError) -> JSONWebKey {
        try JSONWebKey.entraSigningKey(certificate: certificate, issuer: issuer)
    }
}
