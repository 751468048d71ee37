import CMicroHTTPD
import Glibc

/// A request's head as it lies in libmicrohttpd's read buffer once the header fields are in (the access handler's
/// first call): its size in the connection's memory, and what libmicrohttpd's parsed fields hide of the raw bytes.
///
/// libmicrohttpd parses the head in place: it writes NUL over each line break (CR and LF, or a bare LF) and over
/// each field's colon, and reads names and values as C strings. A NUL byte a client put inside a line therefore cuts
/// the value short without a trace in the fields (`Transfer-Encoding: chunked\0` reads as `chunked`), and a folded
/// line (obs-fold) is copied elsewhere. Walking the fields in order through the buffer finds both: between one
/// line's text and the next field's name there may be only the one or two bytes of a line break.
enum RequestHead {
    /// Bytes the head takes in the connection's memory: its raw bytes, a copy of the Cookie field (libmicrohttpd
    /// parses cookies into a copy) and a record for each field and cookie (56 bytes in libmicrohttpd 0.9.75, counted
    /// as 64). What remains of the connection's memory is the room for the response's head.
    static func footprint(_ connection: OpaquePointer) -> Int {
        let fields = Int(MHD_get_connection_values(connection, .HEADER_KIND, nil, nil))
        let cookies = Int(MHD_get_connection_values(connection, .COOKIE_KIND, nil, nil))
        var cookieField = 0
        if let value = MHD_lookup_connection_value(connection, .HEADER_KIND, "Cookie") { cookieField = strlen(value) + 1 }
        return CMicroHTTPD_request_header_size(connection) + cookieField + 64 * (fields + cookies)
    }

    /// Why the raw head cannot be read as its parsed fields say, or nil: a NUL byte inside a line, a folded line,
    /// a field name that is not a token (RFC 9112 §5.1: whitespace before the colon), or a CR inside a value
    /// (RFC 9110 §5.5). `version` is libmicrohttpd's pointer to the request line's version, which ends the line;
    /// `start` its pointer to the method, where the head begins.
    static func problem(_ connection: OpaquePointer, start: UnsafePointer<CChar>, version: UnsafePointer<CChar>) -> String? {
        let size = CMicroHTTPD_request_header_size(connection)
        let begin = UInt(bitPattern: start), after = UInt(bitPattern: version)
        // libmicrohttpd accepts only versions of exactly eight bytes ("HTTP/1.1"), so the request line ends there.
        guard size > 0, after > begin, after - begin + 8 <= UInt(size) else { return nil }
        var walk = Walk(lineEnd: version + 8, headEnd: start + size)
        withUnsafeMutablePointer(to: &walk) { pointer in
            _ = MHD_get_connection_values_n(connection, .HEADER_KIND, visitField, pointer)
        }
        // The last line's break and the empty line's.
        if walk.problem == nil, !walk.isLineBreak(to: walk.headEnd, bytes: 2...4) {
            walk.problem = "a header line holds a NUL byte"
        }
        return walk.problem
    }

    /// The walk through the head's fields, in the order libmicrohttpd read them.
    private struct Walk {
        /// Where the text of the line before the next field ends: the request line's, then each field value's.
        var lineEnd: UnsafePointer<CChar>
        /// Just past the empty line that ends the head.
        let headEnd: UnsafePointer<CChar>
        var problem: String?

        /// Whether the bytes from `lineEnd` to `next` are a line break as libmicrohttpd leaves it: `bytes` NUL bytes
        /// (one for LF, two for CRLF; the last field's are followed by the empty line's).
        func isLineBreak(to next: UnsafePointer<CChar>, bytes: ClosedRange<Int>) -> Bool {
            let from = UInt(bitPattern: lineEnd), to = UInt(bitPattern: next)
            guard to > from, bytes.contains(Int(to - from)) else { return false }
            return UnsafeRawBufferPointer(start: lineEnd, count: Int(to - from)).allSatisfy { $0 == 0 }
        }

        /// Whether `pointer` lies in the head, from the end of the line before on.
        func isAhead(_ pointer: UnsafePointer<CChar>) -> Bool {
            UInt(bitPattern: pointer) >= UInt(bitPattern: lineEnd) && UInt(bitPattern: pointer) < UInt(bitPattern: headEnd)
        }
    }

    private static let visitField: MHD_KeyValueIteratorN = { cls, _, key, keySize, value, valueSize in
        guard let cls, let key else { return .NO }
        let walk = cls.assumingMemoryBound(to: Walk.self)
        if let problem = fieldProblem(walk.pointee, key, keySize, value, valueSize) {
            walk.pointee.problem = problem
            return .NO
        }
        walk.pointee.lineEnd = (value ?? key + keySize) + (value == nil ? 0 : valueSize)
        return .YES
    }

    private static func fieldProblem(_ walk: Walk, _ key: UnsafePointer<CChar>, _ keySize: Int,
                                     _ value: UnsafePointer<CChar>?, _ valueSize: Int) -> String? {
        // A folded line's field is a copy outside the buffer (or after text no field holds).
        guard walk.isAhead(key) else { return "a header field is folded over several lines (obs-fold)" }
        guard walk.isLineBreak(to: key, bytes: 1...2) else { return "a header line holds a NUL byte" }
        let name = UnsafeRawBufferPointer(start: key, count: keySize)
        guard !name.isEmpty, name.allSatisfy(isTokenByte) else {
            return "a header field name is not a token (whitespace or a control character before the colon?)"
        }
        guard let value else { return nil }
        // From the colon (a NUL now) to the value: only spaces and tabs.
        let colon = key + keySize
        guard walk.isAhead(value), UInt(bitPattern: value) > UInt(bitPattern: colon),
              UnsafeRawBufferPointer(start: colon + 1, count: colon.distance(to: value) - 1).allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else {
            return "a header line holds a NUL byte"
        }
        if valueSize > 0, memchr(value, 0x0D, valueSize) != nil { return "a header field value holds a CR" }
        return nil
    }

    /// RFC 9110 §5.6.2: `tchar`.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
             UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
