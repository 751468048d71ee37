/// Why percent-encoded text (a path, a query string or a form body) could not be decoded.
package struct URLEncodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the text.
    package enum Reason: Sendable, Equatable {
        /// A '%' not followed by two hexadecimal digits.
        case invalidPercentEscape
        /// The decoded bytes are not valid UTF-8.
        case invalidUTF8
        /// The decoded text contains a NUL character (%00), which no legitimate value carries.
        case nulCharacter
    }

    /// What is wrong.
    package var reason: Reason
    /// The byte offset, in the encoded input, of the escape or the value where the problem was found.
    package var offset: Int

    /// Describes a problem found at `offset` in the encoded input.
    package init(_ reason: Reason, offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// One sentence, e.g. "bad percent-escape at byte 4 (a '%' must be followed by two hex digits)".
    package var description: String {
        switch reason {
        case .invalidPercentEscape:
            "bad percent-escape at byte \(offset) (a '%' must be followed by two hex digits)"
        case .invalidUTF8:
            "the value starting at byte \(offset) does not decode to valid UTF-8"
        case .nulCharacter:
            "the value starting at byte \(offset) contains a NUL character (%00)"
        }
    }
}
