import COpenSSL

/// A digest algorithm fetched from the default provider once per process (owns the `EVP_MD`).
///
/// Fetching by name takes a lock and a lookup; doing it once keeps signing on the hot path free of both.
/// A fetched `EVP_MD` is immutable and safe to share between threads.
final class MessageDigest: @unchecked Sendable {
    let pointer: OpaquePointer
    /// The digest length in bytes.
    let size: Int

    private init(fetching name: String) throws(OpenSSLError) {
        pointer = try LibCrypto.check(EVP_MD_fetch(nil, name, nil), "EVP_MD_fetch")
        size = Int(EVP_MD_get_size(pointer))
    }

    deinit { EVP_MD_free(pointer) }

    private static func fetch(_ name: String) -> Result<MessageDigest, OpenSSLError> {
        Result { () throws(OpenSSLError) in try MessageDigest(fetching: name) }
    }

    static let sha1 = fetch("SHA1")
    static let sha256 = fetch("SHA256")
    static let sha384 = fetch("SHA384")
    static let sha512 = fetch("SHA512")

    /// The digest of `data`.
    func hash(_ data: some Collection<UInt8>) throws(OpenSSLError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        try LibCrypto.withContiguousBytes(data) { buffer throws(OpenSSLError) in
            let status = out.withUnsafeMutableBufferPointer {
                EVP_Digest(buffer.baseAddress, buffer.count, $0.baseAddress, &length, pointer, nil)
            }
            try LibCrypto.check(status == 1, "EVP_Digest")
        }
        return Array(out.prefix(Int(length)))
    }
}
