import MockIDPCore
import MockIDPText

/// The parts of an absolute URI that the rules for redirect and identifier URIs look at (RFC 3986 §3).
///
/// Cut at the URI's delimiters, which are ASCII bytes: no byte of a multi-byte UTF-8 sequence is one, so the
/// cuts fall where RFC 3986 puts them (a delimiter followed by a combining mark still ends its part). Walking the
/// text by `Character` would walk grapheme clusters, for every URI of every tenant loaded.
struct URIReference {
    /// Lower-cased.
    var scheme: String
    /// Lower-cased; `[::1]` keeps its brackets. Nil when the URI has no authority (`urn:…`, `myapp:cb`).
    var host: String?
    var hasFragment: Bool

    /// The parts of `text`, or nil when it is not an absolute URI (no scheme, nothing after it, or spaces).
    init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon != 0, colon + 1 < bytes.count,
              Self.isScheme(bytes[..<colon]), !Self.hasSpaceOrControl(text, bytes)
        else { return nil }
        let remainder = bytes[(colon + 1)...]
        scheme = String(decoding: bytes[..<colon], as: UTF8.self).lowercasedIfNeeded()
        hasFragment = remainder.contains(UInt8(ascii: "#"))
        guard remainder.starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")]) else {
            host = nil
            return
        }
        let start = remainder.startIndex + 2
        let end = remainder[start...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
            ?? remainder.endIndex
        let authority = bytes[start..<end]
        let hostAndPort = authority.lastIndex(of: UInt8(ascii: "@")).map { authority[($0 + 1)...] } ?? authority
        let hostBytes: ArraySlice<UInt8>?
        if hostAndPort.first == UInt8(ascii: "[") {
            hostBytes = hostAndPort.firstIndex(of: UInt8(ascii: "]")).map { hostAndPort[...$0] }
        } else {
            hostBytes = hostAndPort.prefix { $0 != UInt8(ascii: ":") }
        }
        host = hostBytes.map { String(decoding: $0, as: UTF8.self).lowercasedIfNeeded() }
    }

    /// RFC 3986 §3.1: a letter, then letters, digits, `+`, `-` and `.`.
    private static func isScheme(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard let first = bytes.first, ASCII.isLetter(first) else { return false }
        return bytes.allSatisfy {
            ASCII.isLetter($0) || ASCII.isDigit($0)
                || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
        }
    }

    /// Whether `text` holds white space (Unicode's, not only ASCII's) or a control character.
    private static func hasSpaceOrControl(_ text: String, _ bytes: [UInt8]) -> Bool {
        guard bytes.allSatisfy({ $0 < 0x80 }) else {
            return text.unicodeScalars.contains { $0.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }
        }
        // ASCII's white space is the tab to the carriage return, and the space.
        return bytes.contains { $0 <= 0x20 || $0 == 0x7F }
    }

    /// Entra allows plain http redirect URIs only for these hosts.
    static let loopbackHosts: Set<String> = ["localhost", "127.0.0.1", "[::1]"]

    var isLoopbackHTTP: Bool { scheme == "http" && host.map(Self.loopbackHosts.contains) == true }
    var isHTTPS: Bool { scheme == "https" }
}
