/// DNS host names as the configuration accepts them (RFC 1123): dot-separated labels of letters,
/// digits and hyphens, no label starting or ending with a hyphen; no scheme, port, path or trailing dot.
enum HostName {
    /// Whether `name` (already lower-cased) is a host name.
    static func isValid(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= 253 else { return false }
        for label in bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false) {
            guard (1...63).contains(label.count),
                  label.first != UInt8(ascii: "-"), label.last != UInt8(ascii: "-"),
                  label.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: "-") })
            else { return false }
        }
        return true
    }
}
