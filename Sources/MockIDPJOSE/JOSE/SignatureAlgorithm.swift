/// The JWS signature algorithms this module makes and checks (RFC 7518 §3.1), by their `alg` names.
///
/// `none` and the HMAC algorithms are deliberately absent: an identity provider's tokens are always signed with a
/// key pair, and accepting `none` or HS256 with a public key as secret are classic token forgeries.
package enum SignatureAlgorithm: String, Sendable, CaseIterable {
    /// RSASSA-PKCS1-v1_5 with SHA-256: what Entra signs every token with.
    case rs256 = "RS256"
    /// RSASSA-PKCS1-v1_5 with SHA-384.
    case rs384 = "RS384"
    /// RSASSA-PKCS1-v1_5 with SHA-512.
    case rs512 = "RS512"
    /// RSASSA-PSS with SHA-256 and MGF1-SHA-256: what MSAL signs client assertions with.
    case ps256 = "PS256"
    /// ECDSA on P-256 with SHA-256; the signature is the 64-byte `r || s` (RFC 7518 §3.4), not DER.
    case es256 = "ES256"
}
