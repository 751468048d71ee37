import MockIDPJOSE

/// A token-signing key as Entra publishes it: an RSA key with a self-signed certificate; `kid` = `x5t` =
/// base64url SHA-1 thumbprint of the certificate (docs/entra-behaviour.md, "Signing keys").
public final class SigningKey: Sendable {
    package let privateKey: PrivateKey
    package let certificate: Certificate
    /// `kid` and `x5t`.
    package let keyID: String

    /// Entra's header of v2 and B2C tokens: `typ`, `alg`, `kid`.
    let v2Header: PreparedJWSHeader
    /// Entra's header of v1 tokens: `typ`, `alg`, `x5t`, `kid`.
    let v1Header: PreparedJWSHeader

    package init(privateKey: PrivateKey, certificate: Certificate) {
        self.privateKey = privateKey
        self.certificate = certificate
        let keyID = Base64URL.encode(certificate.sha1Thumbprint)
        self.keyID = keyID
        v2Header = PreparedJWSHeader(["typ": "JWT", "alg": "RS256", "kid": .string(keyID)], algorithm: .rs256)
        v1Header = PreparedJWSHeader(["typ": "JWT", "alg": "RS256", "x5t": .string(keyID), "kid": .string(keyID)], algorithm: .rs256)
    }

    /// The header of tokens of `version` (1 or 2; B2C tokens use 2's).
    func header(version: TokenVersion) -> PreparedJWSHeader { version == .v1 ? v1Header : v2Header }

    /// A new RSA-2048 signing key with a self-signed certificate whose subject is the one Entra's signing
    /// certificates carry (docs/entra-behaviour.md, "Signing keys").
    package static func generate(validityDays: Int = 3650) throws(OpenSSLError) -> SigningKey {
        let key = try PrivateKey.generateRSA(bits: 2048)
        let certificate = try Certificate.selfSigned(key: key, commonName: "accounts.accesscontrol.windows.net",
                                                     validityDays: validityDays)
        return SigningKey(privateKey: key, certificate: certificate)
    }

    /// The key as a JWK; `issuer` is Entra's non-standard member (v2 key sets only).
    package func jsonWebKey(issuer: String?) throws(OpenSSLError) -> JSONWebKey {
        try JSONWebKey.entraSigningKey(certificate: certificate, issuer: issuer)
    }
}
