import MockIDPText

/// A complete HTTP request as the server hands it to the responder: decoded path and query, headers, whole body.
package struct HTTPRequest: Sendable {
    /// The method as received, e.g. "GET" (case kept; methods are case-sensitive, RFC 9110 §9.1).
    package var method: String
    /// The percent-decoded path without the query, e.g. "/contoso.onmicrosoft.com/v2.0/.well-known/openid-configuration".
    package var path: String
    /// The decoded query pairs in order, duplicates kept ('+' is a space, `%2B` a plus).
    package var query: [(name: String, value: String)]
    /// The request header fields in the order received.
    package var headers: HTTPHeaders
    /// The body bytes (empty when there is none).
    package var body: [UInt8]
    /// The peer's numeric address, "127.0.0.1" or "::1" for example; empty when unknown.
    package var remoteAddress: String
    /// True when the request arrived over TLS.
    package var isSecure: Bool
    /// The port of the listener that received the request.
    package var localPort: UInt16
    /// The request target as it came off the wire, undecoded (empty for a request built in code): what a signature
    /// over the query string as sent covers (SAML's HTTP-Redirect binding). The server keeps the string it already has.
    package var rawTarget: String = ""

    /// A request; every part has a default so tests can build one in a line.
    package init(
        method: String = "GET",
        path: String = "/",
        query: [(name: String, value: String)] = [],
        headers: HTTPHeaders = [:],
        body: [UInt8] = [],
        remoteAddress: String = "",
        isSecure: Bool = false,
        localPort: UInt16 = 0
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
        self.isSecure = isSecure
        self.localPort = localPort
    }

    /// A request as a client would send it, from its target in origin form (`/path?query`) or absolute form
    /// (`https://host/path?query`), decoded exactly as the server decodes what comes off the wire; for callers that
    /// answer requests in-process, without a socket. Throws the reason when the target cannot be decoded.
    package init(method: String, target: String, headers: HTTPHeaders = [:], body: [UInt8] = [],
                remoteAddress: String = "127.0.0.1", isSecure: Bool = false, localPort: UInt16 = 0) throws(MalformedRequestTarget) {
        let decoded: RequestTarget
        do { decoded = try RequestTarget(raw: target) } catch { throw MalformedRequestTarget(description: error.message) }
        self.init(method: method, path: decoded.path, query: decoded.query, headers: headers, body: body,
                  remoteAddress: remoteAddress, isSecure: isSecure, localPort: localPort)
        rawTarget = target
    }

    /// The query string as sent, without the `?` and any fragment; nil when the target has none.
    package var rawQuery: Substring? {
        guard let question = rawTarget.firstIndex(of: "?") else { return nil }
        let rest = rawTarget[rawTarget.index(after: question)...]
        return rest.firstIndex(of: "#").map { rest[..<$0] } ?? rest
    }

    /// The first value of the query parameter `name` (exact, case-sensitive match), or nil.
    package func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// True when the peer is on this machine: 127.0.0.0/8, ::1, or an IPv4-mapped 127.x address.
    package var isLoopback: Bool {
        remoteAddress == "::1"
            || remoteAddress.utf8.starts(with: "127.".utf8)
            || ASCII.hasPrefixCaseInsensitive(remoteAddress, "::ffff:127.")
    }
}

/// A request target that cannot be decoded (the server answers such a request with 400).
package struct MalformedRequestTarget: Error, Sendable, CustomStringConvertible {
    /// What is wrong, in words.
    package var description: String
}
