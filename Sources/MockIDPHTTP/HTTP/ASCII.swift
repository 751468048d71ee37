/// ASCII-only case folding: header names and route literals compare without regard to ASCII case,
/// and without allocating a lowercased copy on the request path.
enum ASCII {
    /// Lowercases one byte when it is an ASCII capital letter.
    @inline(__always)
    static func lower(_ byte: UInt8) -> UInt8 {
        byte &- 0x41 < 26 ? byte | 0x20 : byte
    }

    /// True when both strings have the same bytes, ignoring ASCII case.
    static func caseInsensitiveEquals(_ a: some StringProtocol, _ b: some StringProtocol) -> Bool {
        let x = a.utf8, y = b.utf8
        guard x.count == y.count else { return false }
        // Native strings compare over their bytes in place; walking two UTF-8 views in a `zip` took about 250
        // instructions a header name (callgrind), and every request looks up several.
        let inPlace = x.withContiguousStorageIfAvailable { xs in
            y.withContiguousStorageIfAvailable { ys in sameIgnoringCase(xs, ys) }
        }
        if let inPlace, let inPlace { return inPlace }
        return zip(x, y).allSatisfy { lower($0) == lower($1) }
    }

    /// Two buffers of the same length compared ignoring ASCII case.
    private static func sameIgnoringCase(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool {
        for i in x.indices where lower(x[i]) != lower(y[i]) { return false }
        return true
    }

    /// The string with ASCII capitals lowered; other characters unchanged.
    static func lowercased(_ s: some StringProtocol) -> String {
        String(decoding: s.utf8.map(lower), as: UTF8.self)
    }

    /// True when `s` starts with `prefix`, ignoring ASCII case.
    static func hasPrefixCaseInsensitive(_ s: some StringProtocol, _ prefix: some StringProtocol) -> Bool {
        let x = s.utf8, y = prefix.utf8
        guard x.count >= y.count else { return false }
        return zip(x, y).allSatisfy { lower($0) == lower($1) }
    }
}
