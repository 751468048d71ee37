/// Case-insensitive comparisons of names (identifier URIs, client IDs, resource keys) with the meaning of
/// `lowercased()`, without making lower-cased copies when the text is ASCII, as names almost always are.
///
/// Text with a non-ASCII character goes through `lowercased()` and `==` itself: Unicode lowers some characters to
/// ASCII (the Kelvin sign to `k`), and `==` finds some equal to ASCII (the Greek question mark to `;`), which a
/// byte comparison would miss.
extension String {
    /// `lowercased() == other`.
    package func lowercasedEquals(_ other: String) -> Bool {
        Self.asciiCompare(self, other, foldOther: false) ?? (lowercased() == other)
    }

    /// `lowercased() == other.lowercased()`.
    package func equalsIgnoringCase(_ other: String) -> Bool {
        Self.asciiCompare(self, other, foldOther: true) ?? (lowercased() == other.lowercased())
    }

    /// `lowercased()`, returning this text itself (no copy) when it is ASCII with no upper-case letter, as GUIDs,
    /// host names and most usernames and URIs are.
    @inlinable
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
                var high: UInt8 = 0
                for byte in x { high |= byte }
                for byte in y { high |= byte }
                guard high < 0x80 else { return nil }
                guard x.count == y.count else { return false }
                for i in 0..<x.count where ASCII.lower(x[i]) != (foldOther ? ASCII.lower(y[i]) : y[i]) { return false }
                return true
            }
        }
    }
}
