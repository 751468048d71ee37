/// PEM armour (RFC 7468) written and counted in Swift, for data already in DER.
enum PEMText {
    /// `-----BEGIN label-----`, the base64 body in 64-character lines, `-----END label-----`, each line ending in "\n".
    static func encode(_ der: [UInt8], label: String) -> String {
        let body = Array(Base64URL.encodeStandard(der).utf8)
        var out = "-----BEGIN \(label)-----\n"
        var start = 0
        while start < body.count {
            let end = min(start + 64, body.count)
            out += String(decoding: body[start..<end], as: UTF8.self)
            out += "\n"
            start = end
        }
        out += "-----END \(label)-----\n"
        return out
    }

    /// How many times `needle` occurs in `text` (without overlaps).
    static func count(of needle: String, in text: String) -> Int {
        let haystack = Array(text.utf8), pattern = Array(needle.utf8)
        guard !pattern.isEmpty, haystack.count >= pattern.count else { return 0 }
        var found = 0
        var index = 0
        while index <= haystack.count - pattern.count {
            if haystack[index] == pattern[0], haystack[index..<index + pattern.count].elementsEqual(pattern) {
                found += 1
                index += pattern.count
            } else {
                index += 1
            }
        }
        return found
    }
}
