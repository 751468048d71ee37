/// The parts of an absolute URI that the rules for redirect and identifier URIs look at (RFC 3986 §3).
struct URIReference {
    /// Lower-cased.
    var scheme: String
    /// Lower-cased; `[::1]` keeps its brackets. Nil when the URI has no authority (`urn:…`, `myapp:cb`).
    var host: String?
    /// What follows `scheme:`.
    var remainder: Substring
    var hasFragment: Bool

    /// The parts of `text`, or nil when it is not an absolute URI (no scheme, nothing after it, or spaces).
    init?(_ text: String) {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { return nil }
        let scheme = text[..<colon]
        guard let first = scheme.unicodeScalars.first, first.isASCIILetter,
              scheme.unicodeScalars.allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit || $0 == "+" || $0 == "-" || $0 == "." })
        else { return nil }
        let remainder = text[text.index(after: colon)...]
        guard !remainder.isEmpty,
              !text.unicodeScalars.contains(where: { $0.isWhitespace || $0.value < 0x20 || $0.value == 0x7F })
        else { return nil }
        self.scheme = scheme.lowercased()
        self.remainder = remainder
        self.hasFragment = remainder.unicodeScalars.contains("#")
        if remainder.hasPrefix("//") {
            let authority = remainder.dropFirst(2).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            let hostAndPort = authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority
            if hostAndPort.hasPrefix("[") {
                host = hostAndPort.firstIndex(of: "]").map { String(hostAndPort[...$0]).lowercased() }
            } else {
                host = String(hostAndPort.prefix { $0 != ":" }).lowercased()
            }
        } else {
            host = nil
        }
    }

    /// Entra allows plain http redirect URIs only for these hosts.
    static let loopbackHosts: Set<String> = ["localhost", "127.0.0.1", "[::1]"]

    var isLoopbackHTTP: Bool { scheme == "http" && host.map(Self.loopbackHosts.contains) == true }
    var isHTTPS: Bool { scheme == "https" }
}
