/// ASCII-only case folding and classes of bytes: header names and route literals compare without regard to ASCII
/// case, and without allocating a lower-cased copy on the request path.
public enum ASCII {
    /// Lowercases one byte when it is an ASCII capital letter.
    @inlinable @inline(__always)
    public static func lower(_ byte: UInt8) -> UInt8 {
        byte &- 0x41 < 26 ? byte | 0x20 : byte
    }

    /// `a`-`z` or `A`-`Z`.
    @inlinable @inline(__always)
    public static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- 0x61 < 26 }

    /// `0`-`9`.
    @inlinable @inline(__always)
    public static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

    /// True when both strings have the same bytes, ignoring ASCII case. Inlinable, for callers with other string types.
    @inlinable
    public static func caseInsensitiveEquals(_ a: some StringProtocol, _ b: some StringProtocol) -> Bool {
        sameUTF8IgnoringCase(a.utf8, b.utf8)
    }

    /// `caseInsensitiveEquals` for two `String`s, compiled here for them. The request path's callers in other modules
    /// (header lookups, the framing checks) call this one: the generic one, though inlinable, ran there unspecialized,
    /// reading generic metadata on every call (docs/performance.md, "The measurements behind the code's choices").
    public static func caseInsensitiveEquals(_ a: String, _ b: String) -> Bool {
        sameUTF8IgnoringCase(a.utf8, b.utf8)
    }

    /// The same for a `Substring` (a header's field, split) and a `String`.
    public static func caseInsensitiveEquals(_ a: Substring, _ b: String) -> Bool {
        sameUTF8IgnoringCase(a.utf8, b.utf8)
    }

    /// Two UTF-8 views compared ignoring ASCII case. Native strings compare over their bytes in place: walking two
    /// views in a `zip` costs several times as much, and every request looks up several header names.
    @inlinable @inline(__always)
    static func sameUTF8IgnoringCase<X: Collection<UInt8>, Y: Collection<UInt8>>(_ x: X, _ y: Y) -> Bool {
        guard x.count == y.count else { return false }
        let inPlace = x.withContiguousStorageIfAvailable { xs in
            y.withContiguousStorageIfAvailable { ys in sameIgnoringCase(xs, ys) }
        }
        if let inPlace, let inPlace { return inPlace }
        return zip(x, y).allSatisfy { lower($0) == lower($1) }
    }

    /// Two buffers of the same length compared ignoring ASCII case.
    public static func sameIgnoringCase(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool {
        for i in x.indices where lower(x[i]) != lower(y[i]) { return false }
        return true
    }

    /// The string with ASCII capitals lowered; other characters unchanged.
    @inlinable
    public static func lowercased(_ s: some StringProtocol) -> String {
        String(decoding: s.utf8.map(lower), as: UTF8.self)
    }

    /// True when `s` starts with `prefix`, ignoring ASCII case.
    @inlinable
    public static func hasPrefixCaseInsensitive(_ s: some StringProtocol, _ prefix: some StringProtocol) -> Bool {
        let x = s.utf8, y = prefix.utf8
        guard x.count >= y.count else { return false }
        return zip(x, y).allSatisfy { lower($0) == lower($1) }
    }
}
