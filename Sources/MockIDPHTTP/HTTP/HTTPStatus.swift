/// An HTTP response status code with its standard reason phrase (RFC 9110 §15).
package struct HTTPStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The three-digit code, e.g. 200.
    package var rawValue: Int

    /// Wraps any code; codes outside 100...999 are refused by the server with a 500.
    package init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// The standard reason phrase ("Not Found"), or "Status <code>" for a code this type does not name.
    package var reasonPhrase: String {
        switch rawValue {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 302: "Found"
        case 303: "See Other"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        default: "Status \(rawValue)"
        }
    }

    /// The code and phrase, e.g. "404 Not Found".
    package var description: String { "\(rawValue) \(reasonPhrase)" }

    /// 200 OK.
    package static let ok = HTTPStatus(rawValue: 200)
    /// 201 Created.
    package static let created = HTTPStatus(rawValue: 201)
    /// 204 No Content.
    package static let noContent = HTTPStatus(rawValue: 204)
    /// 302 Found, the redirect OAuth uses for authorization responses.
    package static let found = HTTPStatus(rawValue: 302)
    /// 303 See Other.
    package static let seeOther = HTTPStatus(rawValue: 303)
    /// 400 Bad Request.
    package static let badRequest = HTTPStatus(rawValue: 400)
    /// 401 Unauthorized.
    package static let unauthorized = HTTPStatus(rawValue: 401)
    /// 403 Forbidden.
    package static let forbidden = HTTPStatus(rawValue: 403)
    /// 404 Not Found.
    package static let notFound = HTTPStatus(rawValue: 404)
    /// 405 Method Not Allowed.
    package static let methodNotAllowed = HTTPStatus(rawValue: 405)
    /// 413 Content Too Large (formerly Payload Too Large).
    package static let payloadTooLarge = HTTPStatus(rawValue: 413)
    /// 414 URI Too Long.
    package static let uriTooLong = HTTPStatus(rawValue: 414)
    /// 415 Unsupported Media Type.
    package static let unsupportedMediaType = HTTPStatus(rawValue: 415)
    /// 429 Too Many Requests.
    package static let tooManyRequests = HTTPStatus(rawValue: 429)
    /// 431 Request Header Fields Too Large.
    package static let requestHeaderFieldsTooLarge = HTTPStatus(rawValue: 431)
    /// 500 Internal Server Error.
    package static let internalServerError = HTTPStatus(rawValue: 500)
    /// 503 Service Unavailable.
    package static let serviceUnavailable = HTTPStatus(rawValue: 503)
    /// 501 Not Implemented.
    package static let notImplemented = HTTPStatus(rawValue: 501)
}
