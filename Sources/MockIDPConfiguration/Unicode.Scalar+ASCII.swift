extension Unicode.Scalar {
    /// `a`-`z` or `A`-`Z`.
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
    /// `0`-`9`.
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
