import COpenSSL
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A private signing key (RSA or EC) held by libcrypto: token signing, certificate issuing, PEM in and out.
///
/// Immutable once made, so one instance may sign on many threads at once.
package final class PrivateKey: @unchecked Sendable {
    let key: OwnedKey
    /// The public half, for verifying and for publishing in a key set or certificate.
    package let publicKey: PublicKey
    /// The largest signature this key makes (the modulus size for RSA, the DER maximum for ECDSA).
    let signatureCapacity: Int
    /// Prepared signing contexts, lent to one `sign` call at a time.
    private let contexts = SigningContexts()

    init(owning key: OwnedKey) throws(OpenSSLError) {
        switch key.kind {
        case .rsa, .ellipticCurve: break
        case .other(let type): throw LibCrypto.failure("PrivateKey", "only RSA and EC keys are supported, not \(type)")
        }
        self.key = key
        publicKey = PublicKey(owning: try key.publicHalf())
        signatureCapacity = Int(EVP_PKEY_get_size(key.pointer))
        try LibCrypto.check(signatureCapacity > 0, "EVP_PKEY_get_size")
    }

    /// A new random RSA key with a modulus of `bits` bits (e = 65537). Takes tens to hundreds of milliseconds.
    package static func generateRSA(bits: Int = 2048) throws(OpenSSLError) -> PrivateKey {
        guard (1024...16384).contains(bits) else {
            throw LibCrypto.failure("PrivateKey.generateRSA", "\(bits) bits is outside 1024...16384")
        }
        return try PrivateKey(owning: OwnedKey(LibCrypto.check(COpenSSL_RSA_generate(UInt32(bits)), "EVP_RSA_gen")))
    }

    /// A new random EC key on NIST P-256, for ES256.
    package static func generateECP256() throws(OpenSSLError) -> PrivateKey {
        try PrivateKey(owning: OwnedKey(LibCrypto.check(COpenSSL_EC_generate("P-256"), "EVP_EC_gen")))
    }

    /// Reads the first private key in PEM text: PKCS#8 (`BEGIN PRIVATE KEY`) or traditional
    /// (`BEGIN RSA PRIVATE KEY`, `BEGIN EC PRIVATE KEY`). Encrypted keys are refused, never prompted for.
    package convenience init(pem: String) throws(OpenSSLError) {
        if let key = Self.unencryptedPKCS8(pem) {
            try self.init(owning: key)
            return
        }
        let pointer = try LibCrypto.withReadBIO(pem) { bio throws(OpenSSLError) in
            // Without a callback OpenSSL would ask for a passphrase on the terminal.
            try LibCrypto.check(PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in -1 }, nil), "PEM_read_bio_PrivateKey")
        }
        try self.init(owning: OwnedKey(pointer))
    }

    /// An unencrypted PKCS#8 RSA or EC key (what the state directory keeps: the signing key is RSA, the CA's and
    /// the server's are P-256), read by the one decoder for its type; nil for anything else, which `init(pem:)` then
    /// reads as before. `PEM_read_bio_PrivateKey` sets up a decoder for every key type and structure OpenSSL knows,
    /// on the path from start to the first answer.
    private static func unencryptedPKCS8(_ pem: String) -> OwnedKey? {
        guard let type = pkcs8KeyType(pem) else { return nil }
        var key: OpaquePointer?
        guard let decoder = OSSL_DECODER_CTX_new_for_pkey(&key, "PEM", "PrivateKeyInfo", type, OwnedKey.keyPairSelection, nil, nil) else {
            ERR_clear_error()
            return nil
        }
        defer { OSSL_DECODER_CTX_free(decoder) }
        var text = pem
        let decoded = text.withUTF8 { bytes in
            var start = bytes.baseAddress
            var count = bytes.count
            return OSSL_DECODER_from_data(decoder, &start, &count) == 1
        }
        guard decoded, let key else {
            if let key { EVP_PKEY_free(key) }
            ERR_clear_error()
            return nil
        }
        return OwnedKey(key)
    }

    /// The type an unencrypted PKCS#8 PEM's algorithm identifier names, `RSA` (rsaEncryption) or `EC`
    /// (id-ecPublicKey), read from the first 24 bytes of its DER, where the identifier lies (RFC 5208 §5); nil when
    /// the text is not such a key or names another type. Only a hint for choosing the decoder: a wrong one fails
    /// and the key is read as before.
    private static func pkcs8KeyType(_ pem: String) -> String? {
        let header = "-----BEGIN PRIVATE KEY-----"
        guard pem.utf8.starts(with: header.utf8) else { return nil }
        let body = pem.utf8.dropFirst(header.utf8.count).drop { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }.prefix(32)
        guard body.count == 32, let der = Base64URL.decode(Substring(body)) else { return nil }
        // `starts(with:)` at each offset, not `firstRange(of:)`: that one lives in `_StringProcessing`, whose code
        // the release binary cannot lay out, and each call into it on the way to the first answer faults in its pages.
        func names(_ identifier: [UInt8]) -> Bool { der.indices.contains { der[$0...].starts(with: identifier) } }
        if names([0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]) { return "RSA" }  // rsaEncryption
        if names([0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]) { return "EC" }  // id-ecPublicKey
        return nil
    }

    /// An RSA key from its JWK components (RFC 7518 §6.3.2), as big-endian bytes; the components are checked
    /// against each other, so a wrong byte is an error rather than a key that signs garbage.
    package static func rsa(
        n: [UInt8], e: [UInt8], d: [UInt8], p: [UInt8], q: [UInt8], dp: [UInt8], dq: [UInt8], qi: [UInt8]
    ) throws(OpenSSLError) -> PrivateKey {
        // OSSL_PKEY_PARAM_RSA_FACTOR1 and friends are concatenated string macros Swift does not import.
        try PrivateKey(owning: OwnedKey.rsa(components: [
            (OSSL_PKEY_PARAM_RSA_N, n), (OSSL_PKEY_PARAM_RSA_E, e), (OSSL_PKEY_PARAM_RSA_D, d),
            ("rsa-factor1", p), ("rsa-factor2", q), ("rsa-exponent1", dp), ("rsa-exponent2", dq),
            ("rsa-coefficient1", qi),
        ], privateKey: true))
    }

    /// The key as unencrypted PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`), which GnuTLS and every library read.
    package var pkcs8PEM: String {
        get throws(OpenSSLError) {
            try LibCrypto.writtenText("PEM_write_bio_PrivateKey") { bio in
                PEM_write_bio_PrivateKey(bio, key.pointer, nil, nil, 0, nil, nil)
            }
        }
    }

    /// Whether this is an RSA key (RS256, RS384, RS512, PS256); otherwise it is an EC key.
    package var isRSA: Bool { key.kind == .rsa }

    /// Signs `data` with `algorithm`; ES256 gives the JOSE form, the 64-byte `r || s`, not DER.
    ///
    /// Thread-safe: the digest is taken with the process's fetched `EVP_MD`, and the signature made on a prepared
    /// `EVP_PKEY_CTX` that this call holds alone (see `SigningContexts`). `EVP_DigestSignInit` per call would fetch
    /// the signature and key-management implementations again each time (a lookup over OpenSSL's method store on
    /// every token).
    package func sign(_ data: some Collection<UInt8>, algorithm: SignatureAlgorithm) throws(OpenSSLError) -> [UInt8] {
        try algorithm.requireFit(key.kind, "PrivateKey.sign")
        let digest = try algorithm.messageDigest.get()
        let hash = try digest.hash(data)
        let context = try contexts.take(algorithm, key: key, digest: digest)
        var signature = [UInt8](repeating: 0, count: signatureCapacity)
        var length = signature.count
        let status = signature.withUnsafeMutableBufferPointer { output in
            hash.withUnsafeBufferPointer { EVP_PKEY_sign(context, output.baseAddress, &length, $0.baseAddress, $0.count) }
        }
        // A context whose call failed is not lent again.
        if status == 1 { contexts.give(back: context, algorithm) } else { EVP_PKEY_CTX_free(context) }
        try LibCrypto.check(status == 1, "EVP_PKEY_sign")
        signature.removeSubrange(min(length, signature.count)...)
        return algorithm == .es256 ? try ECDSASignature.raw(fromDER: signature, coordinateSize: 32) : signature
    }
}

/// Signing contexts prepared for one key (`EVP_PKEY_sign_init` and the algorithm's parameters done once), lent to
/// one call at a time and kept for the next: as many as calls have signed at once, a handful at most.
/// `EVP_PKEY_sign` may be called again on a context with the same parameters (OpenSSL's `EVP_PKEY_sign(3)`).
///
/// Each context signs with its own copy of the key (`EVP_PKEY_dup`). An RSA key holds its blinding values under a
/// lock, and only the thread that made them may use them without a second, shared set under a second lock that
/// each signature takes: one key signing on two threads at once had them wait on each other in the kernel (`futex`
/// calls from libcrypto's RSA blinding code, `rsa_ossl.c`). A context is lent first to the thread that gave it back,
/// so each thread keeps signing with the copy whose blinding it made.
final class SigningContexts: @unchecked Sendable {
    /// A prepared context; only the thread holding it (or the idle list's lock) touches it.
    private struct Entry: @unchecked Sendable {
        let algorithm: SignatureAlgorithm
        let context: OpaquePointer
        /// The thread that last signed with it.
        let thread: pthread_t
    }

    private let idle = Mutex<[Entry]>([])

    deinit {
        idle.withLock { for entry in $0 { EVP_PKEY_CTX_free(entry.context) } }
    }

    /// A context for `algorithm` that no other call holds: an idle one, or a new one.
    func take(_ algorithm: SignatureAlgorithm, key: OwnedKey, digest: MessageDigest) throws(OpenSSLError) -> OpaquePointer {
        let thread = pthread_self()
        let reused = idle.withLock { entries -> Entry? in
            guard let index = entries.lastIndex(where: { $0.algorithm == algorithm && pthread_equal($0.thread, thread) != 0 })
                ?? entries.lastIndex(where: { $0.algorithm == algorithm }) else { return nil }
            return entries.remove(at: index)
        }
        if let reused { return reused.context }
        // The context holds its own reference to the copy.
        let copy = try LibCrypto.check(EVP_PKEY_dup(key.pointer), "EVP_PKEY_dup")
        defer { EVP_PKEY_free(copy) }
        let context = try LibCrypto.check(EVP_PKEY_CTX_new_from_pkey(nil, copy, nil), "EVP_PKEY_CTX_new_from_pkey")
        do throws(OpenSSLError) {
            try LibCrypto.check(EVP_PKEY_sign_init(context) == 1, "EVP_PKEY_sign_init")
            if algorithm.usesPSS {
                try SignatureAlgorithm.configurePSS(context, digest: digest, saltLength: RSA_PSS_SALTLEN_DIGEST)
            }
            try LibCrypto.check(EVP_PKEY_CTX_set_signature_md(context, digest.pointer) == 1, "EVP_PKEY_CTX_set_signature_md")
        } catch {
            EVP_PKEY_CTX_free(context)
            throw error
        }
        return context
    }

    /// Returns a context `take` lent, for the next call.
    func give(back context: OpaquePointer, _ algorithm: SignatureAlgorithm) {
        let entry = Entry(algorithm: algorithm, context: context, thread: pthread_self())
        idle.withLock { $0.append(entry) }
    }
}
