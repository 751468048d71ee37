import COpenSSL

/// A public key held by libcrypto: verifying signatures, PEM in and out, and the RSA numbers a JWK publishes.
///
/// Immutable once made, so one instance may verify on many threads at once.
public final class PublicKey: @unchecked Sendable {
    let key: OwnedKey

    init(owning key: OwnedKey) { self.key = key }

    /// Reads the first `-----BEGIN PUBLIC KEY-----` (SubjectPublicKeyInfo) block in PEM text.
    package convenience init(pem: String) throws(OpenSSLError) {
        let pointer = try LibCrypto.withReadBIO(pem) { bio throws(OpenSSLError) in
            try LibCrypto.check(PEM_read_bio_PUBKEY(bio, nil, nil, nil), "PEM_read_bio_PUBKEY")
        }
        self.init(owning: OwnedKey(pointer))
    }

    /// An RSA public key from its modulus and public exponent (big-endian, as a JWK's `n` and `e` decode to).
    package static func rsa(modulus n: [UInt8], exponent e: [UInt8]) throws(OpenSSLError) -> PublicKey {
        PublicKey(owning: try OwnedKey.rsa(
            components: [(OSSL_PKEY_PARAM_RSA_N, n), (OSSL_PKEY_PARAM_RSA_E, e)], privateKey: false))
    }

    /// The key as `-----BEGIN PUBLIC KEY-----` PEM.
    package var pem: String {
        get throws(OpenSSLError) {
            try LibCrypto.writtenText("PEM_write_bio_PUBKEY") { bio in PEM_write_bio_PUBKEY(bio, key.pointer) }
        }
    }

    /// Whether `other` is the same key: same type, parameters and public numbers (`EVP_PKEY_eq`).
    package func isSame(as other: PublicKey) -> Bool {
        EVP_PKEY_eq(key.pointer, other.key.pointer) == 1
    }

    /// The RSA modulus and exponent, big-endian without leading zeros (a JWK's `n` and `e`); nil for other keys.
    package var rsaComponents: (modulus: [UInt8], exponent: [UInt8])? {
        guard key.kind == .rsa else { return nil }
        do {
            return (try parameter(OSSL_PKEY_PARAM_RSA_N), try parameter(OSSL_PKEY_PARAM_RSA_E))
        } catch {
            return nil
        }
    }

    private func parameter(_ name: String) throws(OpenSSLError) -> [UInt8] {
        var bignum: OpaquePointer?
        try LibCrypto.check(EVP_PKEY_get_bn_param(key.pointer, name, &bignum) == 1, "EVP_PKEY_get_bn_param")
        let owned = try LibCrypto.check(bignum, "EVP_PKEY_get_bn_param")
        defer { BN_free(owned) }
        return try LibCrypto.bytes(ofBignum: owned)
    }

    /// Whether `signature` is `algorithm`'s signature over `data` by this key's private half.
    ///
    /// Never throws: a malformed signature, a key that does not fit the algorithm, or any OpenSSL failure is
    /// simply `false`. PS256 accepts any salt length, so assertions from every library verify.
    package func verify(signature: [UInt8], for data: some Collection<UInt8>, algorithm: SignatureAlgorithm) -> Bool {
        do {
            try checkSignature(signature, for: data, algorithm: algorithm)
            return true
        } catch {
            return false
        }
    }

    private func checkSignature(
        _ signature: [UInt8], for data: some Collection<UInt8>, algorithm: SignatureAlgorithm
    ) throws(OpenSSLError) {
        try algorithm.requireFit(key.kind, "PublicKey.verify")
        let encoded: [UInt8]
        if algorithm == .es256 {
            guard signature.count == 64 else { throw LibCrypto.failure("PublicKey.verify", "ES256 signatures are 64 bytes") }
            encoded = try ECDSASignature.der(fromRaw: signature)
        } else {
            guard !signature.isEmpty else { throw LibCrypto.failure("PublicKey.verify", "empty signature") }
            encoded = signature
        }
        let digest = try algorithm.messageDigest.get()
        let context = try LibCrypto.check(EVP_MD_CTX_new(), "EVP_MD_CTX_new")
        defer { EVP_MD_CTX_free(context) }
        var keyContext: OpaquePointer?  // owned by `context`
        try LibCrypto.check(
            EVP_DigestVerifyInit(context, &keyContext, digest.pointer, nil, key.pointer) == 1, "EVP_DigestVerifyInit")
        if algorithm.usesPSS {
            try SignatureAlgorithm.configurePSS(keyContext, digest: digest, saltLength: RSA_PSS_SALTLEN_AUTO)
        }
        try LibCrypto.withContiguousBytes(data) { input throws(OpenSSLError) in
            let status = encoded.withUnsafeBufferPointer { signatureBytes in
                EVP_DigestVerify(
                    context, signatureBytes.baseAddress, signatureBytes.count,
                    input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count)
            }
            // 1 is a good signature; 0 a bad one, negative an error: both are "not verified".
            try LibCrypto.check(status == 1, "EVP_DigestVerify")
        }
    }
}
