/// IP addresses as text: a request's client address, and the forms certificates' subjectAltName entries are compared
/// and shown in.
package enum IPAddressText {
    /// `a.b.c.d` for an IPv4 address in host byte order, as `inet_ntop` writes it. glibc's `inet_ntop` writes it with
    /// `sprintf`, which costs more than the rest of the request's address handling (every request's client address
    /// is written).
    package static func dotted(_ address: UInt32) -> String {
        String(unsafeUninitializedCapacity: 15) { out in
            var o = 0
            for shift in stride(from: 24, through: 0, by: -8) {
                let octet = Int(address >> UInt32(shift) & 0xFF)
                if shift != 24 { out[o] = UInt8(ascii: "."); o += 1 }
                if octet >= 100 { out[o] = UInt8(ascii: "0") + UInt8(octet / 100); o += 1 }
                if octet >= 10 { out[o] = UInt8(ascii: "0") + UInt8(octet / 10 % 10); o += 1 }
                out[o] = UInt8(ascii: "0") + UInt8(octet % 10)
                o += 1
            }
            return o
        }
    }

    /// Dotted IPv4 for 4 bytes (network order), RFC 5952 IPv6 (lower case, longest zero run as "::") for 16; nil
    /// otherwise.
    package static func format(_ bytes: [UInt8]) -> String? {
        if bytes.count == 4 { return dotted(bytes.reduce(0) { $0 << 8 | UInt32($1) }) }
        guard bytes.count == 16 else { return nil }
        let groups = (0..<8).map { Int(bytes[2 * $0]) << 8 | Int(bytes[2 * $0 + 1]) }
        // The longest run of two or more zero groups (the first one on a tie) becomes "::" (RFC 5952 §4.2).
        var bestStart = -1, bestLength = 0, runStart = -1
        for index in 0...8 {
            if index < 8, groups[index] == 0 {
                if runStart < 0 { runStart = index }
            } else if runStart >= 0 {
                if index - runStart > bestLength { bestStart = runStart; bestLength = index - runStart }
                runStart = -1
            }
        }
        let hex = groups.map { String($0, radix: 16) }
        guard bestLength >= 2 else { return hex.joined(separator: ":") }
        let head = hex[..<bestStart].joined(separator: ":")
        let tail = hex[(bestStart + bestLength)...].joined(separator: ":")
        return head + "::" + tail
    }
}
