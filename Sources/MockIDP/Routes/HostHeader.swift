/// Reading the `Host` header safely: only a host name or IP literal with an optional port is used in URLs,
/// so a crafted header can never inject text into issuers or endpoint URLs.
enum HostHeader {
    /// The header value lower-cased when it is `name[:port]` or `[v6][:port]`, else nil.
    static func validated(_ value: String) -> String? {
        let v = value.lowercased()
        guard !v.isEmpty, v.utf8.count <= 255 else { return nil }
        var rest = Substring(v)
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            let inner = rest[rest.index(after: rest.startIndex)..<close]
            guard !inner.isEmpty, inner.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
            rest = rest[rest.index(after: close)...]
        } else {
            let name = rest.prefix { $0 != ":" }
            guard !name.isEmpty, name.allSatisfy({ ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "-" || $0 == "." }) else { return nil }
            rest = rest[name.endIndex...]
        }
        if rest.isEmpty { return v }
        guard rest.first == ":", rest.count > 1, rest.count <= 6, rest.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return v
    }

    /// `host:port` for a listener address (IPv6 in brackets).
    static func listenerAuthority(_ host: String, port: UInt16) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// The host name of `host[:port]` or of a URL, without port or brackets' contents changed.
    static func hostName(of value: String) -> String {
        var s = Substring(value)
        if let scheme = s.firstRange(of: "://") { s = s[scheme.upperBound...] }
        s = s.prefix { $0 != "/" }
        if s.hasPrefix("["), let close = s.firstIndex(of: "]") { return String(s[...close]) }
        return String(s.prefix { $0 != ":" })
    }
}
