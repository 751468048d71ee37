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

    /// The key as a JWK; `issuer` is Entra's non-standard member (v2 key sets only).
    public func jsonWebKey(issuer: String?) throws(OpenSSLError) -> JSONWebKey {
        try JSONWebKey.entraSigningKey(certificate: certificate, issuer: issuer)
    }
}
