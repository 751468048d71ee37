import COpenSSL

/// The gate every libcrypto result passes through, and the small helpers the key and certificate types share.
///
/// OpenSSL reports failure through a return value and details through a per-thread error queue. Every result is
/// handed to `check`; on failure the queue is drained into the thrown `OpenSSLError`, so it never leaks into an
/// unrelated later call on the same thread.
enum LibCrypto {
    /// Throws when `succeeded` is false. Callers spell out what success means (`== 1`, `> 0`), because OpenSSL
    /// functions disagree on it.
    static func check(_ succeeded: Bool, _ operation: StaticString) throws(OpenSSLError) {
        if !succeeded { throw drainErrors(operation) }
    }

    /// Returns the pointer, or throws when OpenSSL returned NULL.
    static func check<Pointer>(_ pointer: Pointer?, _ operation: StaticString) throws(OpenSSLError) -> Pointer {
        guard let pointer else { throw drainErrors(operation) }
        return pointer
    }

    /// Empties this thread's error queue into an error for `operation`.
    private static func drainErrors(_ operation: StaticString) -> OpenSSLError {
        var reasons: [String] = []
        while true {
            var data: UnsafePointer<CChar>?
            var flags: Int32 = 0
            let code = ERR_get_error_all(nil, nil, nil, &data, &flags)
            if code == 0 { break }
            var reason = text(ofError: code)
            if let data, flags & ERR_TXT_STRING != 0, data.pointee != 0 { reason += " (\(String(cString: data)))" }
            reasons.append(reason)
        }
        return OpenSSLError(operation: "\(operation)", reasons: reasons)
    }

    private static func text(ofError code: UInt) -> String {
        if let library = ERR_lib_error_string(code), let reason = ERR_reason_error_string(code) {
            return "\(String(cString: library)): \(String(cString: reason))"
        }
        var buffer = [CChar](repeating: 0, count: 256)
        return buffer.withUnsafeMutableBufferPointer { b in
            ERR_error_string_n(code, b.baseAddress, b.count)
            return b.baseAddress.map { String(cString: $0) } ?? "error \(code)"
        }
    }

    /// An error raised by this module itself (a precondition on the arguments), not by a libcrypto call.
    static func failure(_ operation: String, _ reason: String) -> OpenSSLError {
        OpenSSLError(operation: operation, reasons: [reason])
    }

    // MARK: Bytes

    /// `Array.withUnsafeBytes` rethrows untyped errors; this keeps `OpenSSLError` typed.
    static func withBytes<Result>(
        _ bytes: [UInt8], _ body: (UnsafeRawBufferPointer) throws(OpenSSLError) -> Result
    ) throws(OpenSSLError) -> Result {
        try bytes.withUnsafeBytes { buffer in
            Swift.Result { () throws(OpenSSLError) in try body(buffer) }
        }.get()
    }

    /// Runs `body` over contiguous bytes, copying only when the collection is not contiguous already.
    static func withContiguousBytes<Result>(
        _ bytes: some Collection<UInt8>, _ body: (UnsafeRawBufferPointer) throws(OpenSSLError) -> Result
    ) throws(OpenSSLError) -> Result {
        let direct = bytes.withContiguousStorageIfAvailable { buffer in
            Swift.Result { () throws(OpenSSLError) in try body(UnsafeRawBufferPointer(buffer)) }
        }
        if let direct { return try direct.get() }
        return try withBytes(Array(bytes), body)
    }

    /// The DER bytes an `i2d_*` function writes: called once for the length, once to fill the buffer.
    static func derBytes(
        _ operation: StaticString, _ encode: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32
    ) throws(OpenSSLError) -> [UInt8] {
        let length = encode(nil)
        try check(length > 0, operation)
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return encode(&cursor)
        }
        try check(written == length, operation)
        return der
    }

    // MARK: Memory BIOs (PEM text in and out)

    /// Runs `body` with a read-only memory BIO over `text`.
    ///
    /// `BIO_new_mem_buf` does not copy, so the BIO must not outlive the bytes: it is created and freed inside
    /// the closure that pins them.
    static func withReadBIO<Result>(
        _ text: String, _ body: (OpaquePointer) throws(OpenSSLError) -> Result
    ) throws(OpenSSLError) -> Result {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= Int(Int32.max) else {
            throw failure("BIO_new_mem_buf", bytes.isEmpty ? "the text is empty" : "the text is too long")
        }
        return try withBytes(bytes) { buffer throws(OpenSSLError) in
            let bio = try check(BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)), "BIO_new_mem_buf")
            defer { BIO_free(bio) }
            return try body(bio)
        }
    }

    /// The text `write` puts into a fresh memory BIO; `write` returns 1 on success, as the `PEM_write_bio_*` do.
    static func writtenText(_ operation: StaticString, _ write: (OpaquePointer) -> Int32) throws(OpenSSLError) -> String {
        let bio = try check(BIO_new(BIO_s_mem()), "BIO_new")
        defer { BIO_free(bio) }
        try check(write(bio) == 1, operation)
        var data: UnsafeMutablePointer<CChar>?
        let length = COpenSSL_BIO_get_mem_data(bio, &data)
        try check(length >= 0 && data != nil, "BIO_get_mem_data")
        return String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
    }

    // MARK: Big numbers

    /// The big-endian bytes of a BIGNUM, without leading zeros (empty for zero).
    static func bytes(ofBignum bignum: OpaquePointer) throws(OpenSSLError) -> [UInt8] {
        let count = Int(COpenSSL_BN_num_bytes(bignum))
        var out = [UInt8](repeating: 0, count: count)
        let written = out.withUnsafeMutableBufferPointer { BN_bn2bin(bignum, $0.baseAddress) }
        try check(Int(written) == count, "BN_bn2bin")
        return out
    }

    /// A new BIGNUM holding the big-endian `bytes`; the caller frees it.
    static func bignum(_ bytes: [UInt8]) throws(OpenSSLError) -> OpaquePointer {
        guard bytes.count <= Int(Int32.max) else { throw failure("BN_bin2bn", "the number is too long") }
        return try withBytes(bytes) { buffer throws(OpenSSLError) in
            try check(
                BN_bin2bn(buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(buffer.count), nil), "BN_bin2bn")
        }
    }
}
