/// The path and query of a request target as it came off the wire (RFC 9112 §3.2), strictly decoded.
struct RequestTarget {
    /// Which part of the target failed to decode, and why.
    struct DecodingFailure: Error {
        /// "path" or "query string".
        var component: String
        var error: URLEncodingError

        /// A plain-text body for the 400 answer.
        var message: String { "Bad Request: cannot decode the \(component) of the request target: \(error)\n" }
    }

    /// The percent-decoded path ('+' stays '+').
    var path: String
    /// The decoded query pairs, in order with duplicates.
    var query: [(name: String, value: String)]

    /// Splits a raw target (origin form "/p?q", or absolute form "http://host/p?q") and decodes both parts;
    /// a fragment, which clients should not send, is dropped. Error offsets count bytes of the raw target.
    init(raw: String) throws(DecodingFailure) {
        var raw = raw
        let parsed = raw.withUTF8 { buffer in
            Result { () throws(DecodingFailure) in try Self.parse(buffer) }
        }
        (path, query) = try parsed.get()
    }

    private static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>
    ) throws(DecodingFailure) -> (String, [(name: String, value: String)]) {
        var start = 0
        if bytes.first != UInt8(ascii: "/"), let pathStart = authorityEnd(bytes) {
            start = pathStart
        }
        let end = bytes[start...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.count
        let question = bytes[start..<end].firstIndex(of: UInt8(ascii: "?"))
        let path: String
        do {
            let pathEnd = question ?? end
            path = pathEnd == start ? "/" : try URLEncodedForm.decodeComponent(bytes, start..<pathEnd, plusIsSpace: false)
        } catch {
            throw DecodingFailure(component: "path", error: error)
        }
        guard let question else { return (path, []) }
        do {
            return (path, try URLEncodedForm.decodePairs(bytes, (question + 1)..<end))
        } catch {
            throw DecodingFailure(component: "query string", error: error)
        }
    }

    /// For "scheme://authority/…", the index where the path starts (the end when there is no path); else nil.
    private static func authorityEnd(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
              bytes[colon...].starts(with: "://".utf8)
        else { return nil }
        return bytes[(colon + 3)...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? bytes.count
    }
}
