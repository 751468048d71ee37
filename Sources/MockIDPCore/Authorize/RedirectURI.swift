/// Entra's redirect-URI rules (reference/entra-protocol.md §7.2): an exact, case-sensitive match against the app's
/// registered URIs, except that for loopback `http` URIs (`localhost`, `127.0.0.1`, `[::1]`) the port is ignored
/// (RFC 8252 §7.3) while the path must still match.
package enum RedirectURI {
    /// The registered URI `candidate` matches, or nil when none does.
    static func match(_ candidate: String, registered: [String]) -> String? {
        if registered.contains(candidate) { return candidate }
        guard let asked = ParsedURL(candidate), asked.scheme == "http", isLoopback(asked.host) else { return nil }
        for uri in registered {
            guard let r = ParsedURL(uri), r.scheme == "http", r.host == asked.host else { continue }
            // Entra: a registered URI without a path matches "/" too.
            if normalizedPath(r.path) == normalizedPath(asked.path), query(uri) == query(candidate) { return uri }
        }
        return nil
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
