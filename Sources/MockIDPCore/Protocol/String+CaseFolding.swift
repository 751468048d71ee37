/// Case-insensitive comparisons of names (identifier URIs, client IDs, resource keys) with the meaning of
/// `lowercased()`, without making lower-cased copies when the text is ASCII, as names almost always are.
///
/// Text with a non-ASCII character goes through `lowercased()` and `==` itself: Unicode lowers some characters to
/// ASCII (the Kelvin sign to `k`), and `==` finds some equal to ASCII (the Greek question mark to `;`), which a
/// byte comparison would miss.
extension String {
    /// `lowercased() == other`.
    func lowercasedEquals(_ other: String) -> Bool {
        Self.asciiCompare(self, other, foldOther: false) ?? (lowercased() == other)
    }

    /// `lowercased() == other.lowercased()`.
    func equalsIgnoringCase(_ other: String) -> Bool {
        Self.asciiCompare(self, other, foldOther: true) ?? (lowercased() == other.lowercased())
    }

    /// `lowercased()`, returning this text itself when it is ASCII with no upper-case letter.
    package func lowercasedIfNeeded() -> String {
        var text = self
        let lower = text.withUTF8 { bytes in
            !bytes.contains { $0 >= 0x80 || ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) }
        }
        return lower ? self : lowercased()
    }

    /// The comparison of two ASCII texts, `a` lowered (and `b` too if `foldOther`); nil when either is not ASCII.
    private static func asciiCompare(_ a: String, _ b: String, foldOther: Bool) -> Bool? {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y -> Bool? in
                var equal = x.count == y.count
                for i in 0..<Swift.min(x.count, y.count) {
                    let p = x[i], q = y[i]
                    guard p < 0x80, q < 0x80 else { return nil }
                    if lower(p) != (foldOther ? lower(q) : q) { equal = false }
                }
                // Past the common length only the ASCII check is left to make.
                if !equal {
                    let longer = x.count > y.count ? x : y
                    for i in Swift.min(x.count, y.count)..<longer.count where longer[i] >= 0x80 { return nil }
                }
                return equal
            }
        }
    }

    @inline(__always)
    private static func lower(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
