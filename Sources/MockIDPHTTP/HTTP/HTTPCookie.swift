/// A cookie the server sets (`Set-Cookie`, RFC 6265 §4.1), and parsing of the `Cookie` header a client sends.
package struct HTTPCookie: Sendable, Equatable {
    /// The `SameSite` attribute.
    ///
    /// On an optional, write `HTTPCookie.SameSite.none` in full: a bare `.none` means `Optional.none`, no attribute.
    package enum SameSite: String, Sendable, Equatable {
        /// `SameSite=Strict`: never sent on cross-site requests.
        case strict = "Strict"
        /// `SameSite=Lax`: sent on top-level cross-site navigations.
        case lax = "Lax"
        /// `SameSite=None`: always sent; browsers require `Secure` with it.
        case none = "None"
    }

    /// The cookie name (a token: no separators, spaces or control characters).
    package var name: String
    /// The value, written as given: use characters allowed in a cookie value (e.g. base64url or percent-encoded text).
    package var value: String
    /// The `Path` attribute.
    package var path: String
    /// The `Max-Age` attribute in seconds (0 deletes the cookie); nil makes a session cookie.
    package var maxAge: Int?
    /// Whether scripts are kept from reading the cookie (`HttpOnly`).
    package var httpOnly: Bool
    /// Whether the cookie is only sent over HTTPS (`Secure`).
    package var secure: Bool
    /// The `SameSite` attribute, or nil to omit it.
    package var sameSite: SameSite?

    /// A cookie; by default a session cookie for the whole site, hidden from scripts.
    package init(
        name: String,
        value: String,
        path: String = "/",
        maxAge: Int? = nil,
        httpOnly: Bool = true,
        secure: Bool = false,
        sameSite: SameSite? = nil
    ) {
        self.name = name
        self.value = value
        self.path = path
        self.maxAge = maxAge
        self.httpOnly = httpOnly
        self.secure = secure
        self.sameSite = sameSite
    }

    /// The `Set-Cookie` header value, e.g. "sid=abc; Path=/; Max-Age=3600; HttpOnly; Secure; SameSite=None".
    package var setCookieHeaderValue: String {
        var out = "\(name)=\(value); Path=\(path)"
        if let maxAge { out += "; Max-Age=\(maxAge)" }
        if httpOnly { out += "; HttpOnly" }
        if secure { out += "; Secure" }
        if let sameSite { out += "; SameSite=\(sameSite.rawValue)" }
        return out
    }

    /// The (name, value) pairs of a `Cookie` request header, in order with duplicates kept (RFC 6265 §5.4);
    /// spaces around pieces and the double quotes around a quoted value are removed, pieces without '=' skipped.
    package static func parse(cookieHeader: String) -> [(name: String, value: String)] {
        var pairs: [(name: String, value: String)] = []
        // Split on the scalars ';' and '=', as the header's bytes are split (RFC 6265 §5.4), never on characters: a
        // combining mark right after a ';' makes one grapheme of the two, and the cookies around it ran together
        // (found by the `cookie` fuzz harness).
        for scalars in cookieHeader.unicodeScalars.split(separator: ";", omittingEmptySubsequences: true) {
            guard let equals = scalars.firstIndex(of: "=") else { continue }
            let name = trimmed(Substring(scalars[..<equals]))
            var value = trimmed(Substring(scalars[scalars.index(after: equals)...]))
            if value.count >= 2, value.first == "\"", value.last == "\"" {
                value = value.dropFirst().dropLast()
            }
            guard !name.isEmpty else { continue }
            pairs.append((name: String(name), value: String(value)))
        }
        return pairs
    }

    private static func trimmed(_ s: Substring) -> Substring {
        var s = s
        while let first = s.first, first == " " || first == "\t" { s = s.dropFirst() }
        while let last = s.last, last == " " || last == "\t" { s = s.dropLast() }
        return s
    }
}
