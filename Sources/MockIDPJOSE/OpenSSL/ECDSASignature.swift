import COpenSSL

/// Converts ECDSA signatures between OpenSSL's DER `ECDSA-Sig-Value` and JOSE's fixed-size `r || s`
/// (RFC 7518 §3.4: each integer left-padded to the curve's coordinate size).
enum ECDSASignature {
    /// `r || s`, each `coordinateSize` bytes, from a DER signature.
    static func raw(fromDER der: [UInt8], coordinateSize: Int) throws(OpenSSLError) -> [UInt8] {
        let signature = try LibCrypto.withBytes(der) { buffer throws(OpenSSLError) in
            guard let start = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
                throw LibCrypto.failure("d2i_ECDSA_SIG", "no bytes")
            }
            var cursor: UnsafePointer<UInt8>? = start
            return try LibCrypto.check(d2i_ECDSA_SIG(nil, &cursor, buffer.count), "d2i_ECDSA_SIG")
        }
        defer { ECDSA_SIG_free(signature) }
        var r: OpaquePointer?
        var s: OpaquePointer?
        ECDSA_SIG_get0(signature, &r, &s)
        var out = [UInt8](repeating: 0, count: 2 * coordinateSize)
        let (writtenR, writtenS) = out.withUnsafeMutableBufferPointer { buffer in
            (BN_bn2binpad(r, buffer.baseAddress, Int32(coordinateSize)),
             BN_bn2binpad(s, buffer.baseAddress.map { $0 + coordinateSize }, Int32(coordinateSize)))
        }
        try LibCrypto.check(Int(writtenR) == coordinateSize && Int(writtenS) == coordinateSize, "BN_bn2binpad")
        return out
    }

    /// A DER signature from `r || s` (two halves of equal size).
    static func der(fromRaw raw: [UInt8]) throws(OpenSSLError) -> [UInt8] {
        let half = raw.count / 2
        let r = try LibCrypto.bignum(Array(raw[..<half]))
        let s: OpaquePointer
        do { s = try LibCrypto.bignum(Array(raw[half...])) } catch { BN_free(r); throw error }
        let signature: OpaquePointer
        do {
            signature = try LibCrypto.check(ECDSA_SIG_new(), "ECDSA_SIG_new")
        } catch {
            BN_free(r)
            BN_free(s)
            throw error
        }
        defer { ECDSA_SIG_free(signature) }
        do {
            try LibCrypto.check(ECDSA_SIG_set0(signature, r, s) == 1, "ECDSA_SIG_set0")  // on success it owns r and s
        } catch {
            BN_free(r)
            BN_free(s)
            throw error
        }
        return try LibCrypto.derBytes("i2d_ECDSA_SIG") { i2d_ECDSA_SIG(signature, $0) }
    }
}
