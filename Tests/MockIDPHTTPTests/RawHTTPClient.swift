import CTLS
import Glibc
import MockIDPHTTP

/// A tiny blocking HTTP/1.1 client over a POSIX socket, or over TLS on it: the tests send exact bytes and read exact
/// responses.
final class RawHTTPClient {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A parsed response.
    struct Response {
        var status: Int
        var headers: HTTPHeaders
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    private let fd: Int32
    private var buffer: [UInt8] = []
    /// The TLS context and connection when the client speaks TLS (no certificate check: the tests are about bytes).
    private var tlsContext: OpaquePointer?
    private var tls: OpaquePointer?

    /// Connects to `host` (numeric IPv4 or IPv6) and `port`, from the address `source` when given (another
    /// loopback address stands for another client), over TLS when `secure`; reads time out after `timeout` seconds.
    init(host: String = "127.0.0.1", port: UInt16, source: String? = nil, timeout: Int = 5, secure: Bool = false) throws {
        let (family, storage, length) = try Self.address(host, port)
        fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        if let source {
            var (_, local, localLength) = try Self.address(source, 0)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, localLength) }
            }
            guard bound == 0 else {
                let code = errno
                close(fd)
                throw Failure(description: "bind \(source): errno \(code)")
            }
        }
        var limit = timeval(tv_sec: timeout, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = storage
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw Failure(description: "connect: errno \(code)")
        }
        if secure { try startTLS() }
    }

    private func startTLS() throws {
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw Failure(description: "SSL_CTX_new failed") }
        tlsContext = context
        SSL_CTX_set_verify(context, SSL_VERIFY_NONE, nil)
        guard let connection = SSL_new(context) else { throw Failure(description: "SSL_new failed") }
        tls = connection
        SSL_set_fd(connection, fd)
        _ = CTLS_set_server_name(connection, "localhost")
        guard SSL_connect(connection) == 1 else { throw Failure(description: "the TLS handshake failed") }
    }

    deinit {
        if let tls { SSL_free(tls) }
        if let tlsContext { SSL_CTX_free(tlsContext) }
        close(fd)
    }

    /// Sends or receives over TLS or the plain socket: the byte count, 0 when the peer closed, -1 on an error
    /// (with `errno` EAGAIN when a read timed out).
    private func transfer(_ buffer: UnsafeMutableRawPointer, _ count: Int, sending: Bool) -> Int {
        guard let tls else {
            return sending ? Glibc.send(fd, buffer, count, Int32(MSG_NOSIGNAL)) : recv(fd, buffer, count, 0)
        }
        errno = 0
        let n = Int(sending ? SSL_write(tls, buffer, Int32(count)) : SSL_read(tls, buffer, Int32(count)))
        if n > 0 { return n }
        switch SSL_get_error(tls, Int32(n)) {
        case SSL_ERROR_ZERO_RETURN: return 0
        // A peer that closes without TLS's close_notify: the end of the connection all the same.
        case SSL_ERROR_SYSCALL where errno == 0, SSL_ERROR_SSL: return 0
        default: return -1
        }
    }

    /// The errno of a plain connection attempt (ECONNREFUSED, …), or nil when the connection was accepted.
    static func connectionError(host: String = "127.0.0.1", port: UInt16) -> Int32? {
        guard let (family, storage, length) = try? address(host, port) else { return EINVAL }
        let fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = storage
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) }
        }
        return result == 0 ? nil : errno
    }

    /// Sends all bytes.
    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        var bytes = bytes
        while offset < bytes.count {
            let count = bytes.count - offset
            let sent = bytes.withUnsafeMutableBytes { transfer($0.baseAddress! + offset, count, sending: true) }
            guard sent > 0 else { throw Failure(description: "send: errno \(errno)") }
            offset += sent
        }
    }

    /// Sends text as UTF-8.
    func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    /// Reads one response; `hasBody: false` for HEAD (Content-Length is then only informative).
    func readResponse(hasBody: Bool = true) throws -> Response {
        let headerEnd = try fill(until: { Self.find([13, 10, 13, 10], in: $0) })
        let head = String(decoding: buffer[..<headerEnd], as: UTF8.self)
        buffer.removeFirst(headerEnd + 4)
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw Failure(description: "bad status line: \(head)") }
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.add(String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " }))
        }
        var body: [UInt8] = []
        if hasBody, let length = headers["Content-Length"].flatMap({ Int($0) }) {
            _ = try fill(until: { $0.count >= length ? length : nil })
            body = Array(buffer[..<length])
            buffer.removeFirst(length)
        }
        return Response(status: status, headers: headers, body: body)
    }

    /// True when the server closes the connection (or resets it) within the read timeout.
    func waitForClose() -> Bool {
        var byte: UInt8 = 0
        while true {
            let received = transfer(&byte, 1, sending: false)
            if received == 0 { return true }
            if received < 0 { return errno == ECONNRESET }
        }
    }

    private func fill(until done: ([UInt8]) -> Int?) throws -> Int {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            if let result = done(buffer) { return result }
            let count = chunk.count
            let received = chunk.withUnsafeMutableBytes { transfer($0.baseAddress!, count, sending: false) }
            guard received > 0 else {
                throw Failure(description: received == 0 ? "connection closed by the server" : "recv: errno \(errno)")
            }
            buffer.append(contentsOf: chunk[..<received])
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return nil
    }

    private static func address(_ host: String, _ port: UInt16) throws -> (Int32, sockaddr_storage, socklen_t) {
        var storage = sockaddr_storage()
        if host.contains(":") {
            try withUnsafeMutablePointer(to: &storage) {
                try $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    $0.pointee.sin6_family = sa_family_t(AF_INET6)
                    $0.pointee.sin6_port = port.bigEndian
                    guard inet_pton(AF_INET6, host, &$0.pointee.sin6_addr) == 1 else { throw Failure(description: "bad host \(host)") }
                }
            }
            return (AF_INET6, storage, socklen_t(MemoryLayout<sockaddr_in6>.size))
        }
        try withUnsafeMutablePointer(to: &storage) {
            try $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                $0.pointee.sin_family = sa_family_t(AF_INET)
                $0.pointee.sin_port = port.bigEndian
                guard inet_pton(AF_INET, host, &$0.pointee.sin_addr) == 1 else { throw Failure(description: "bad host \(host)") }
            }
        }
        return (AF_INET, storage, socklen_t(MemoryLayout<sockaddr_in>.size))
    }
}
