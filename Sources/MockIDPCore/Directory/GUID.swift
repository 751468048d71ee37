import MockIDPJOSE

/// GUIDs as Entra writes them: lower-case, 8-4-4-4-12 hex digits.
package enum GUID {
    /// Whether `text` is a GUID in 8-4-4-4-12 form (either case).
    package static func isValid(_ text: some StringProtocol) -> Bool {
        // The bytes where they lie, checked by a function that is not generic: a walk of a generic text's UTF-8
        // view called through its witnesses for every byte, and copying to an array allocated for every id.
        text.utf8.withContiguousStorageIfAvailable(isValid(utf8:)) ?? Array(text.utf8).withUnsafeBufferPointer(isValid(utf8:))
    }

    private static func isValid(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count == 36 else { return false }
        for (i, b) in bytes.enumerated() {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                guard b == UInt8(ascii: "-") else { return false }
            } else {
                guard isHexDigit(b) else { return false }
            }
        }
        return true
    }

    /// A random (version 4) GUID from the given bytes source.
    package static func random(_ random: RandomSource) -> String { format(version: 4, random.bytes(16)) }

    /// A name-based GUID (version 5 layout over SHA-256): the same name always gives the same GUID.
    package static func derived(from name: String) -> String { format(version: 5, Array(Digest.sha256(Array(name.utf8)).prefix(16))) }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    package static func format(version: UInt8, _ input: [UInt8]) -> String {
        var b = input
        b[6] = (b[6] & 0x0F) | (version << 4)
        b[8] = (b[8] & 0x3F) | 0x80
        return String(unsafeUninitializedCapacity: 36) { out in
            var at = 0
            for (i, byte) in b.prefix(16).enumerated() {
                if i == 4 || i == 6 || i == 8 || i == 10 {
                    out[at] = UInt8(ascii: "-")
                    at += 1
                }
                out[at] = hexDigits[Int(byte >> 4)]
                out[at + 1] = hexDigits[Int(byte & 0x0F)]
                at += 2
            }
            return at
        }
    }

    private static func isHexDigit(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66)
    }
}
