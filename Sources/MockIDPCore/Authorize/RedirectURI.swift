import MockIDPText

/// Entra's redirect-URI rules (docs/entra-behaviour.md, "Redirect URIs"): an exact, case-sensitive match against the
/// app's registered URIs, except that for loopback `http` URIs (`localhost`, `127.0.0.1`, `[::1]`) the port is ignored
/// (RFC 8252 §7.3) while the path must still match.
package enum RedirectURI {
    /// The registered URI `candidate` matches, or nil when none does. A URI with a scripting or local scheme never
    /// matches, even when registered: this server never sends a browser there.
    package static func match(_ candidate: String, registered: [String]) -> String? {
        guard !hasDangerousScheme(candidate) else { return nil }
        if registered.contains(candidate) { return candidate }
        // The port may differ only when the URI is one a browser can be sent to: no fragment (RFC 6749 §3.1.2) and a
        // real port (1–65535, digits only), so `http://localhost:99999` or `http://localhost#x` matches nothing.
        guard !candidate.contains("#"), let asked = ParsedURL(candidate), asked.scheme == "http", isLoopback(asked.host),
              hasUsablePort(candidate, asked) else { return nil }
        for uri in registered {
            guard let r = ParsedURL(uri), r.scheme == "http", r.host == asked.host else { continue }
            // Entra: a registered URI without a path matches "/" too.
            if normalizedPath(r.path) == normalizedPath(asked.path), query(uri) == query(candidate) { return uri }
        }
        return nil
    }

    /// Schemes a browser runs or reads locally instead of navigating to a client: a response sent there would run
    /// an attacker's script in this server's origin (`javascript:`, `vbscript:`, `data:`) or reach the user's files.
    /// Entra registers only `https`, loopback `http` and, for public clients, an app's own scheme
    /// (docs/entra-behaviour.md, "Redirect URIs"); that these are refused is [INF].
    package static let dangerousSchemes: Set<String> = ["javascript", "data", "vbscript", "file"]

    /// Whether `uri`'s scheme is one of `dangerousSchemes`, read as a browser reads it: ASCII case ignored, leading
    /// spaces and control characters skipped, and tabs and line breaks anywhere removed (WHATWG URL, basic URL parser).
    package static func hasDangerousScheme(_ uri: String) -> Bool {
        var scheme: [UInt8] = []
        var started = false
        for byte in uri.utf8 {
            if byte == 0x09 || byte == 0x0A || byte == 0x0D { continue }
            if !started, byte <= 0x20 { continue }
            started = true
            if byte == UInt8(ascii: ":") { return dangerousSchemes.contains(String(decoding: scheme, as: UTF8.self)) }
            guard scheme.count < 16 else { return false }
            scheme.append(ASCII.lower(byte))
        }
        return false
    }

    /// The origin a form_post page may submit to, as a CSP source expression: `scheme://host[:port]` for http(s), the
    /// scheme alone (`msauth.com.contoso.mobile:`) for an app's own scheme; nil when `uri` has no usable origin.
    package static func formActionSource(_ uri: String) -> String? {
        guard !hasDangerousScheme(uri), let colon = uri.firstIndex(of: ":") else { return nil }
        let allowed = { (c: Character) in c.isASCII && (c.isLetter || c.isNumber || "+-.".contains(c)) }
        let scheme = uri[..<colon].lowercased()
        guard !scheme.isEmpty, scheme.allSatisfy(allowed) else { return nil }
        guard scheme == "http" || scheme == "https" else { return scheme + ":" }
        guard let parsed = ParsedURL(uri) else { return nil }
        let host = parsed.host.hasPrefix("[") ? parsed.host.dropFirst().dropLast() : Substring(parsed.host)
        guard !host.isEmpty, host.allSatisfy({ allowed($0) || $0 == ":" }) else { return nil }
        if let port = parsed.port { guard (1...65535).contains(port) else { return nil } }
        return "\(parsed.scheme)://\(parsed.hostAndPort)"
    }

    /// Whether `parsed` (parsed from `uri`) has no port or one written in digits that a listener could use.
    private static func hasUsablePort(_ uri: String, _ parsed: ParsedURL) -> Bool {
        guard let port = parsed.port else { return true }
        return (1...65535).contains(port) && uri.lowercased().contains("\(parsed.host):\(port)")
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "127.0.0.1" || host == "[::1]"
    }

    private static func normalizedPath(_ path: String) -> String { path.isEmpty ? "/" : path }

    private static func query(_ uri: String) -> String {
        guard let q = uri.firstIndex(of: "?") else { return "" }
        return String(uri[q...].prefix { $0 != "#" })
    }

    /// Entra: a registered URI without a path comes back with a trailing slash in query and fragment responses.
    package static func responseTarget(_ requested: String) -> String {
        guard let parsed = ParsedURL(requested), parsed.scheme == "http" || parsed.scheme == "https",
              parsed.path.isEmpty, !requested.contains("?") else { return requested }
        return requested + "/"
    }
}
