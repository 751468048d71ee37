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
        // Native strings are compared where their bytes lie; others are copied first.
        let inPlace = utf8.withContiguousStorageIfAvailable { x in
            other.utf8.withContiguousStorageIfAvailable { y in Self.sameBytes(x, y) }
        }
        if let inPlace, let inPlace { return inPlace }
        return Array(utf8).withUnsafeBufferPointer { x in Array(other.utf8).withUnsafeBufferPointer { y in Self.sameBytes(x, y) } }
    }

    private static func sameBytes(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool {
        // The lengths are compared whole. Folded into the byte of differences, as they once were, lengths 256 apart
        // looked equal, and a secret passed with any 256 characters added to it, or the first part of a longer one.
        var diff: UInt8 = x.count == y.count ? 0 : 1
        for i in 0..<Swift.min(x.count, y.count) { diff |= x[i] ^ y[i] }
        return diff == 0
    }
}
