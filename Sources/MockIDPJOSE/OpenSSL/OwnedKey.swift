import COpenSSL

/// Owns one `EVP_PKEY` and frees it.
///
/// The key is never mutated after it is made, so one instance is shared by every thread: OpenSSL 3 allows
/// concurrent signing and verifying with one `EVP_PKEY` as long as each call has its own context.
final class OwnedKey: @unchecked Sendable {
    let pointer: OpaquePointer
    let kind: KeyKind

    /// Takes ownership of `pointer`.
    init(_ pointer: OpaquePointer) {
        self.pointer = pointer
        kind = KeyKind(of: pointer)
    }

    deinit { EVP_PKEY_free(pointer) }

    /// An RSA key made from its big-endian components (`n`, `e`, and for a key pair `d`, the primes and the CRT
    /// values), with OpenSSL 3's `EVP_PKEY_fromdata`, then checked for consistency.
    static func rsa(components: [(name: String, bytes: [UInt8])], privateKey: Bool) throws(OpenSSLError) -> OwnedKey {
        let builder = try LibCrypto.check(OSSL_PARAM_BLD_new(), "OSSL_PARAM_BLD_new")
        defer { OSSL_PARAM_BLD_free(builder) }
        // The builder and the OSSL_PARAM array it makes keep the name pointers, not copies: the names must stay
        // put until EVP_PKEY_fromdata returns, which a String bridged for one call does not.
        let names = CStringTable(components.map(\.name))
        defer { withExtendedLifetime(names) {} }
        var bignums: [OpaquePointer] = []
        defer { for bignum in bignums { BN_clear_free(bignum) } }
        for (index, component) in components.enumerated() {
            let bignum = try LibCrypto.bignum(component.bytes)
            bignums.append(bignum)
            try LibCrypto.check(OSSL_PARAM_BLD_push_BN(builder, names[index], bignum) == 1, "OSSL_PARAM_BLD_push_BN")
        }
        let parameters = try LibCrypto.check(OSSL_PARAM_BLD_to_param(builder), "OSSL_PARAM_BLD_to_param")
        defer { OSSL_PARAM_free(parameters) }

        let context = try LibCrypto.check(EVP_PKEY_CTX_new_from_name(nil, "RSA", nil), "EVP_PKEY_CTX_new_from_name")
        defer { EVP_PKEY_CTX_free(context) }
        let key = try fromData(context, privateKey ? Self.keyPairSelection : Self.publicSelection, parameters)

        // fromdata takes the numbers on trust; a typo in a test vector should fail here, not as a wrong signature.
        let checker = try LibCrypto.check(EVP_PKEY_CTX_new_from_pkey(nil, key.pointer, nil), "EVP_PKEY_CTX_new_from_pkey")
        defer { EVP_PKEY_CTX_free(checker) }
        if privateKey {
            try LibCrypto.check(EVP_PKEY_pairwise_check(checker) == 1, "EVP_PKEY_pairwise_check")
        } else {
            try LibCrypto.check(EVP_PKEY_public_check(checker) == 1, "EVP_PKEY_public_check")
        }
        return key
    }

    // EVP_PKEY_PUBLIC_KEY and EVP_PKEY_KEYPAIR are nested macros Swift does not import; these are their values.
    static let publicSelection = OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS | OSSL_KEYMGMT_SELECT_OTHER_PARAMETERS
        | OSSL_KEYMGMT_SELECT_PUBLIC_KEY
    static let keyPairSelection = publicSelection | OSSL_KEYMGMT_SELECT_PRIVATE_KEY

    /// The public half as a key of its own: the public parameters exported and imported again
    /// (`EVP_PKEY_todata`, `EVP_PKEY_fromdata`), not through SubjectPublicKeyInfo DER, whose decoding runs OpenSSL 3's
    /// decoder chain on the path from start to the first answer.
    func publicHalf() throws(OpenSSLError) -> OwnedKey {
        var parameters: UnsafeMutablePointer<OSSL_PARAM>?
        try LibCrypto.check(EVP_PKEY_todata(pointer, Self.publicSelection, &parameters) == 1, "EVP_PKEY_todata")
        defer { OSSL_PARAM_free(parameters) }
        let context = try LibCrypto.check(EVP_PKEY_CTX_new_from_pkey(nil, pointer, nil), "EVP_PKEY_CTX_new_from_pkey")
        defer { EVP_PKEY_CTX_free(context) }
        return try Self.fromData(context, Self.publicSelection, parameters)
    }

    /// A key made by `context`'s key manager from `parameters`, with the parts `selection` names.
    private static func fromData(
        _ context: OpaquePointer, _ selection: Int32, _ parameters: UnsafeMutablePointer<OSSL_PARAM>?
    ) throws(OpenSSLError) -> OwnedKey {
        try LibCrypto.check(EVP_PKEY_fromdata_init(context) == 1, "EVP_PKEY_fromdata_init")
        var made: OpaquePointer?
        try LibCrypto.check(EVP_PKEY_fromdata(context, &made, selection, parameters) == 1, "EVP_PKEY_fromdata")
        return OwnedKey(try LibCrypto.check(made, "EVP_PKEY_fromdata"))
    }
}

/// What a key can do, decided once when it is loaded.
enum KeyKind: Equatable, Sendable {
    case rsa
    /// An elliptic-curve key on the named group (OpenSSL's name, e.g. `prime256v1` for P-256).
    case ellipticCurve(group: String)
    /// Any other type (Ed25519, DSA, RSA-PSS-restricted keys, …), by OpenSSL's type name.
    case other(String)

    init(of key: OpaquePointer) {
        if EVP_PKEY_is_a(key, "RSA") == 1 {
            self = .rsa
        } else if EVP_PKEY_is_a(key, "EC") == 1 {
            var name = [CChar](repeating: 0, count: 64)
            var length = 0
            let status = name.withUnsafeMutableBufferPointer { EVP_PKEY_get_group_name(key, $0.baseAddress, $0.count, &length) }
            do {
                try LibCrypto.check(status == 1, "EVP_PKEY_get_group_name")
                self = .ellipticCurve(group: String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self))
            } catch {
                self = .ellipticCurve(group: "")  // explicit curve parameters: no name, and no JOSE algorithm either
            }
        } else {
            self = .other(EVP_PKEY_get0_type_name(key).map { String(cString: $0) } ?? "unknown")
        }
    }

    /// NIST P-256 (secp256r1), the curve ES256 requires.
    var isP256: Bool { self == .ellipticCurve(group: "prime256v1") || self == .ellipticCurve(group: "P-256") }
}

/// NUL-terminated copies of strings that stay at one address until the table is freed.
private final class CStringTable {
    private var pointers: [UnsafeMutablePointer<CChar>] = []

    init(_ strings: [String]) {
        for string in strings {
            let utf8 = Array(string.utf8CString)
            let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: utf8.count)
            pointer.initialize(from: utf8, count: utf8.count)
            pointers.append(pointer)
        }
    }

    subscript(index: Int) -> UnsafePointer<CChar> { UnsafePointer(pointers[index]) }

    deinit { for pointer in pointers { pointer.deallocate() } }
}
