/// IP addresses as text: the forms certificates' subjectAltName entries are compared and shown in.
enum IPAddressText {
    /// Dotted IPv4 for 4 bytes, RFC 5952 IPv6 (lower case, longest zero run as "::") for 16; nil otherwise.
    static func format(_ bytes: [UInt8]) -> String? {
        if bytes.count == 4 { return bytes.map { String($0) }.joined(separator: ".") }
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
