extension Unicode.Scalar {
    /// `a`-`z` or `A`-`Z`.
    package var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
    /// `0`-`9`.
    package var isASCIIDigit: Bool { ("0"..."9").contains(self) }
    /// Unicode's White_Space property, without the property lookup for ASCII (most of what a configuration holds).
    package var isWhitespace: Bool {
        value < 0x80 ? value == 0x20 || (0x09...0x0D).contains(value) : properties.isWhitespace
    }
}
