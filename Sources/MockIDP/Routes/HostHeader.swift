import MockIDPText

/// Reading the `Host` header safely: only a host name or IP literal with an optional port is used in URLs,
/// so a crafted header can never inject text into issuers or endpoint URLs.
enum HostHeader {
    /// The header value lower-cased when it is `name[:port]` or `[v6][:port]`, else nil. Checked byte by byte:
    /// this runs on every request.
    static func validated(_ value: String) -> String? {
        // Read where the bytes lie (a copy into an array was an allocation a request).
        var text = value
        guard text.withUTF8({ isValid($0) }) else { return nil }
        return value.lowercasedIfNeeded()
    }

    /// Whether the header is `name[:port]` or `[v6][:port]`, at most 255 bytes.
    private static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !bytes.isEmpty, bytes.count <= 255 else { return false }
        var i = 0
        if bytes[0] == UInt8(ascii: "[") {
            i = 1
            while i < bytes.count, bytes[i] != UInt8(ascii: "]") {
                guard isHex(bytes[i]) || bytes[i] == UInt8(ascii: ":") || bytes[i] == UInt8(ascii: ".") else { return false }
                i += 1
            }
            guard i < bytes.count, i > 1 else { return false }
            i += 1
        } else {
            while i < bytes.count, bytes[i] != UInt8(ascii: ":") {
                let b = bytes[i]
                guard isHex(b) || (b >= 0x67 && b <= 0x7A) || (b >= 0x47 && b <= 0x5A) || b == UInt8(ascii: "-") || b == UInt8(ascii: ".") else {
                    return false
                }
                i += 1
            }
            guard i > 0 else { return false }
        }
        if i < bytes.count {
            let port = bytes[(i + 1)...]
            guard bytes[i] == UInt8(ascii: ":"), !port.isEmpty, port.count <= 5, port.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                return false
            }
        }
        return true
    }

    private static func isHex(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x66) || (b >= 0x41 && b <= 0x46)
    }

    /// `host:port` for a listener address (IPv6 in brackets).
    static func listenerAuthority(_ host: String, port: UInt16) -> String {
        host.utf8.contains(UInt8(ascii: ":")) ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// The host name of `host[:port]` or of a URL, without port or brackets' contents changed.
    static func hostName(of value: String) -> String {
        // Bytes, not Characters: this runs on every request.
        let utf8 = value.utf8
        var start = utf8.startIndex
        if let colon = utf8.firstIndex(of: UInt8(ascii: ":")),
           utf8[colon...].starts(with: "://".utf8) {
            start = utf8.index(colon, offsetBy: 3)
        }
        var end = start
        if start < utf8.endIndex, utf8[start] == UInt8(ascii: "[") {
            while end < utf8.endIndex, utf8[end] != UInt8(ascii: "]"), utf8[end] != UInt8(ascii: "/") { end = utf8.index(after: end) }
            if end < utf8.endIndex, utf8[end] == UInt8(ascii: "]") { return String(value[start...end]) }
            end = start
        }
        while end < utf8.endIndex, utf8[end] != UInt8(ascii: ":"), utf8[end] != UInt8(ascii: "/") { end = utf8.index(after: end) }
        return String(value[start..<end])
    }
}
