import MockIDPJOSE

/// GUIDs as Entra writes them: lower-case, 8-4-4-4-12 hex digits.
package enum GUID {
    /// Whether `text` is a GUID in 8-4-4-4-12 form (either case).
    package static func isValid(_ text: some StringProtocol) -> Bool {
        let bytes = Array(text.utf8)
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
        var out: [UInt8] = []
        out.reserveCapacity(36)
        for (i, byte) in b.enumerated() {
            if i == 4 || i == 6 || i == 8 || i == 10 { out.append(UInt8(ascii: "-")) }
            out.append(hexDigits[Int(byte >> 4)])
            out.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func isHexDigit(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66)
    }
}
