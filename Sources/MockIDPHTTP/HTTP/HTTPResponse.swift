/// A complete HTTP response: status, header fields and the whole body (the server adds `Content-Length` and `Date`).
public struct HTTPResponse: Sendable {
    /// The status code.
    public var status: HTTPStatus
    /// The header fields; `Content-Length` and `Transfer-Encoding` set here are ignored, the server frames the body.
    public var headers: HTTPHeaders
    /// The body bytes (not sent for HEAD requests, 204 and 304).
    public var body: [UInt8]
    /// When set, the server sends the response only after this long, without holding a worker thread meanwhile
    /// (the connection is suspended); other connections are answered as usual.
    public var delay: Duration?
    /// Why the request was rejected, in words for logs and the request log; never sent.
    public var rejectionReason: String?

    /// A response with the given parts.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON body with `Content-Type: application/json; charset=utf-8`.
    public static func json(_ body: [UInt8], status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json; charset=utf-8"], body: body)
    }

    /// An HTML page with `Content-Type: text/html; charset=utf-8`.
    public static func html(_ body: String, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/html; charset=utf-8"], body: Array(body.utf8))
    }

    /// Plain text with `Content-Type: text/plain; charset=utf-8`.
    public static func text(_ body: String, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(body.utf8))
    }

    /// A redirect to `location` (302 Found unless told otherwise), with an empty body.
    public static func redirect(to location: String, status: HTTPStatus = .found) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Location": location])
    }
}
