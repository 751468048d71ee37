import COpenSSL

// RSASSA-PKCS1-v1_5 with SHA-1: no JWS algorithm (so not a `SignatureAlgorithm`, which a token header could name),
// but XML Signature's `rsa-sha1` (https://www.w3.org/TR/xmldsig-core1/#sec-PKCS1), which an Entra SAML app set to
// SHA-1 signs with (docs/saml.md, "Single logout").
extension PrivateKey {
    /// The RSA-SHA1 signature of `data`.
    package func signRSASHA1(_ data: [UInt8]) throws(OpenSSLError) -> [UInt8] {
        guard isRSA else { throw LibCrypto.failure("PrivateKey.signRSASHA1", "RSA-SHA1 needs an RSA key") }
        let digest = try MessageDigest.sha1.get()
        let context = try LibCrypto.check(EVP_MD_CTX_new(), "EVP_MD_CTX_new")
        defer { EVP_MD_CTX_free(context) }
        try LibCrypto.check(EVP_DigestSignInit(context, nil, digest.pointer, nil, key.pointer) == 1, "EVP_DigestSignInit")
        var signature = [UInt8](repeating: 0, count: signatureCapacity)
        var length = signature.count
        let status = signature.withUnsafeMutableBufferPointer { output in
            data.withUnsafeBufferPointer { EVP_DigestSign(context, output.baseAddress, &length, $0.baseAddress, $0.count) }
        }
        try LibCrypto.check(status == 1, "EVP_DigestSign")
        return Array(signature.prefix(length))
    }
}

extension PublicKey {
    /// Whether `signature` is the RSA-SHA1 signature of `data` by this key's private half; never throws.
    package func verifyRSASHA1(signature: [UInt8], for data: [UInt8]) -> Bool {
        guard key.kind == .rsa, !signature.isEmpty, let digest = try? MessageDigest.sha1.get(),
              let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, digest.pointer, nil, key.pointer) == 1 else { return false }
        return signature.withUnsafeBufferPointer { signed in
            data.withUnsafeBufferPointer { EVP_DigestVerify(context, signed.baseAddress, signed.count, $0.baseAddress, $0.count) }
        } == 1
    }
}
