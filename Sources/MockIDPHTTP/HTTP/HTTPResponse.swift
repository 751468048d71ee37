/// A complete HTTP response: status, header fields and the whole body (the server adds `Content-Length` and `Date`).
package struct HTTPResponse: Sendable {
    /// The status code.
    package var status: HTTPStatus
    /// The header fields; `Content-Length` and `Transfer-Encoding` set here are ignored, the server frames the body.
    package var headers: HTTPHeaders
    /// The body bytes (not sent for HEAD requests, 204 and 304).
    package var body: [UInt8]
    /// When set, the server sends the response only after this long, without holding a worker thread meanwhile
    /// (the connection is suspended); other connections are answered as usual.
    package var delay: Duration?
    /// Why the request was rejected, in words for logs and the request log; never sent.
    package var rejectionReason: String?

    /// A response with the given parts.
    package init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON body with `Content-Type: application/json; charset=utf-8`.
    package static func json(_ body: [UInt8], status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json; charset=utf-8"], body: body)
    }

    /// A JSON body that no cache may keep (`Cache-Control: no-store, no-cache`, `Pragma: no-cache`), as Entra sends
    /// tokens and errors. The fields are one literal: set one by one, they grew the list twice.
    package static func uncachedJSON(_ body: [UInt8], status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json; charset=utf-8",
                                               "Cache-Control": "no-store, no-cache", "Pragma": "no-cache"], body: body)
    }

    /// An HTML page with `Content-Type: text/html; charset=utf-8`.
    package static func html(_ body: String, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/html; charset=utf-8"], body: Array(body.utf8))
    }

    /// Plain text with `Content-Type: text/plain; charset=utf-8`.
    package static func text(_ body: String, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(body.utf8))
    }

    /// A redirect to `location` (302 Found unless told otherwise), with an empty body.
    package static func redirect(to location: String, status: HTTPStatus = .found) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Location": location])
    }
}
