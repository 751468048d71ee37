/// Small text rules shared by the provider and the HTTP mapping: trimming header and form values, comparing secrets.
extension Substring {
    /// The text without leading and trailing spaces and tabs (HTTP's optional whitespace, form fields).
    ///
    /// On `Substring` and `String` rather than generic over `StringProtocol`: called from other modules, a generic
    /// version runs unspecialized, instantiating its collection types' metadata at run time.
    package func trimmingSpaces() -> String {
        var text = self
        while let c = text.first, c == " " || c == "\t" { text = text.dropFirst() }
        while let c = text.last, c == " " || c == "\t" { text = text.dropLast() }
        return String(text)
    }
}

extension String {
    /// The text without leading and trailing spaces and tabs (HTTP's optional whitespace, form fields).
    package func trimmingSpaces() -> String { self[...].trimmingSpaces() }
}

extension StringProtocol {
    /// Compares secrets (passwords, client secrets, tokens) in time independent of where, and whether in length,
    /// they differ.
    package func isSameSecret(as other: some StringProtocol) -> Bool {
        // The lengths are compared whole. Folded into the byte of differences, as they once were, lengths 256 apart
        // looked equal, and a secret passed with any 256 characters added to it, or the first part of a longer one.
        var diff: UInt8 = utf8.count == other.utf8.count ? 0 : 1
        for (x, y) in zip(utf8, other.utf8) { diff |= x ^ y }
        return diff == 0
    }
}
