import COpenSSL

/// Bytes from OpenSSL's CSPRNG, for key material, serial numbers, codes and token identifiers.
package enum SecureRandom {
    /// `count` cryptographically secure random bytes.
    package static func bytes(_ count: Int) -> [UInt8] {
        precondition(count >= 0 && count <= Int(Int32.max), "a byte count between 0 and Int32.max")
        if count == 0 { return [] }
        var out = [UInt8](repeating: 0, count: count)
        let status = out.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(count)) }
        do {
            try LibCrypto.check(status == 1, "RAND_bytes")
        } catch {
            // Handing out predictable bytes as secrets would be worse than stopping.
            preconditionFailure("the CSPRNG failed: \(error)")
        }
        return out
    }
}
