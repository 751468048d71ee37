import COpenSSL

extension SignatureAlgorithm {
    /// The hash the algorithm signs with (RFC 7518 §3.3–3.5).
    var messageDigest: Result<MessageDigest, OpenSSLError> {
        switch self {
        case .rs256, .ps256, .es256: MessageDigest.sha256
        case .rs384: MessageDigest.sha384
        case .rs512: MessageDigest.sha512
        }
    }

    /// RSASSA-PSS rather than PKCS#1 v1.5 or ECDSA.
    var usesPSS: Bool { self == .ps256 }

    /// Whether a key of `kind` can make or check this algorithm's signatures.
    func fits(_ kind: KeyKind) -> Bool {
        switch self {
        case .rs256, .rs384, .rs512, .ps256: kind == .rsa
        case .es256: kind.isP256
        }
    }

    /// Throws unless a key of `kind` fits this algorithm.
    func requireFit(_ kind: KeyKind, _ operation: String) throws(OpenSSLError) {
        guard fits(kind) else {
            let needed = self == .es256 ? "an EC P-256 key" : "an RSA key"
            throw LibCrypto.failure(operation, "\(rawValue) needs \(needed), not \(kind)")
        }
    }

    /// Sets RSASSA-PSS on a signing or verifying context: MGF1 with the same hash, and `saltLength`
    /// (`RSA_PSS_SALTLEN_DIGEST` to sign as RFC 7518 §3.5 says, `RSA_PSS_SALTLEN_AUTO` to accept any).
    static func configurePSS(_ context: OpaquePointer?, digest: MessageDigest, saltLength: Int32) throws(OpenSSLError) {
        try LibCrypto.check(EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PSS_PADDING) > 0, "EVP_PKEY_CTX_set_rsa_padding")
        try LibCrypto.check(EVP_PKEY_CTX_set_rsa_mgf1_md(context, digest.pointer) > 0, "EVP_PKEY_CTX_set_rsa_mgf1_md")
        try LibCrypto.check(EVP_PKEY_CTX_set_rsa_pss_saltlen(context, saltLength) > 0, "EVP_PKEY_CTX_set_rsa_pss_saltlen")
    }
}
