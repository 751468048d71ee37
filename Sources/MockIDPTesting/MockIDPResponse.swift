import MockIDPJOSE

/// An HTTP answer as `MockIDPClient` returns it: the same value in both modes (`.inProcess` and `.live`), whatever
/// its status; redirects are returned, never followed.
public struct MockIDPResponse: Sendable {
    /// The status code (200, 302, 400, …).
    public var status: Int
    /// The header fields in the order the server sent them, names as it spelled them, repeated fields (`Set-Cookie`)
    /// kept. Fields the socket layer adds (`Date`, `Content-Length`, `Connection`) are there only in `.live`.
    public var headers: [(name: String, value: String)]
    /// The body bytes (empty when there is none).
    public var body: [UInt8]

    /// A response; tests of code that takes one can build it in a line.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of the header field `name` (case-insensitive); nil when there is none.
    public func header(_ name: String) -> String? {
        headers.first { Self.sameName($0.name, name) }?.value
    }

    /// Every value of the header field `name` (case-insensitive), in order: each `Set-Cookie`, for example.
    public func headers(named name: String) -> [String] {
        headers.compactMap { Self.sameName($0.name, name) ? $0.value : nil }
    }

    /// The body as UTF-8 text (an HTML page, an error description).
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed as JSON; `.null` when it is not JSON (a page, an empty body), so `response.json["error"]` reads
    /// as nil there. Use `JSONValue.parse(response.body)` to tell a JSON `null` from no JSON at all.
    public var json: JSONValue { (try? JSONValue.parse(body)) ?? .null }

    /// The `Location` header of a redirect.
    public var location: String? { header("Location") }

    private static func sameName(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a.lowercased() == b.lowercased()
    }
}
