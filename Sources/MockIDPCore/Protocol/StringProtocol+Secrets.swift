/// Small text rules shared by the provider and the HTTP mapping: trimming header and form values, comparing secrets.
extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (HTTP's optional whitespace, form fields).
    package func trimmingSpaces() -> String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }

    /// Compares secrets (passwords, client secrets, tokens) in time independent of where, and whether in length,
    /// they differ.
    package func isSameSecret(as other: some StringProtocol) -> Bool {
        let x = Array(utf8), y = Array(other.utf8)
        var diff = UInt8(truncatingIfNeeded: x.count ^ y.count)
        for i in 0..<Swift.min(x.count, y.count) { diff |= x[i] ^ y[i] }
        return diff == 0
    }
}
