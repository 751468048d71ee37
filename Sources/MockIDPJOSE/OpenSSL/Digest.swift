import COpenSSL
/// Message digests over bytes: thumbprints (`x5t` is SHA-1, `x5t#S256` SHA-256), PKCE, hashes of claims.
package enum Digest {
    /// SHA-256 (32 bytes).
    package static func sha256(_ data: some Collection<UInt8>) -> [UInt8] { hash(data, MessageDigest.sha256) }
    /// SHA-256 of an array, what most callers pass: from another module the generic form runs unspecialized, with a
    /// witness call and type metadata lookups on every call.
    package static func sha256(_ data: [UInt8]) -> [UInt8] { hash(data, MessageDigest.sha256) }
    /// SHA-1 (20 bytes); only for thumbprints, where the format demands it.
    package static func sha1(_ data: some Collection<UInt8>) -> [UInt8] { hash(data, MessageDigest.sha1) }
    /// SHA-384 (48 bytes).
    package static func sha384(_ data: some Collection<UInt8>) -> [UInt8] { hash(data, MessageDigest.sha384) }
    /// SHA-512 (64 bytes).
    package static func sha512(_ data: some Collection<UInt8>) -> [UInt8] { hash(data, MessageDigest.sha512) }

    /// HMAC-SHA-256 (RFC 2104) of `data` under `key` (32 bytes). Only `mockidp`'s tamper defects use it: the
    /// `hs256-public-key` forgery, which a relying party must refuse (this server never signs with a shared secret).
    package static func hmacSHA256(key: [UInt8], data: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 32
        let done = key.withUnsafeBufferPointer { k in
            data.withUnsafeBufferPointer { d in
                out.withUnsafeMutableBufferPointer { o in
                    HMAC(EVP_sha256(), k.baseAddress, Int32(k.count), d.baseAddress, d.count, o.baseAddress, &length)
                }
            }
        }
        guard done != nil, length == 32 else { preconditionFailure("OpenSSL's default provider always computes HMAC-SHA-256") }
        return out
    }

    private static func hash(_ data: some Collection<UInt8>, _ digest: Result<MessageDigest, OpenSSLError>) -> [UInt8] {
        do {
            return try digest.get().hash(data)
        } catch {
            // Hashing memory cannot fail unless the process cannot allocate or libcrypto has no default provider.
            preconditionFailure("OpenSSL's default provider always hashes with SHA-1 and SHA-2: \(error)")
        }
    }
}
