#if canImport(Glibc)
import Glibc
#endif
import CTLS

/// `mockidp probe`'s HTTP/1.1 client: one request per connection (`Connection: close`) with a bearer token, to the
/// API under test, over plain TCP or TLS (OpenSSL's libssl, verifying the server against the system's trust store
/// or `--cacert`, unless `--insecure`). Only the status is read: a probe asks whether the API accepted the token.
struct ProbeClient {
    struct Target {
        var secure: Bool
        var host: String
        var port: UInt16
        /// The path and query, as sent in the request line.
        var target: String
        /// `Host:` as sent.
        var authority: String

        /// `http://host[:port]/path?query` or `https://…`; nil when `url` is not one.
        init?(_ url: String) {
            let lower = url.lowercased()
            if lower.hasPrefix("https://") { secure = true } else if lower.hasPrefix("http://") { secure = false } else { return nil }
            let rest = url.dropFirst(secure ? 8 : 7)
            let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
            authority = String(rest[..<slash])
            let path = rest[slash...]
            target = path.isEmpty ? "/" : (path.first == "?" ? "/" + path : String(path))
            var hostPart = Substring(authority)
            var portText: Substring?
            if hostPart.hasPrefix("[") {
                guard let close = hostPart.firstIndex(of: "]") else { return nil }
                let after = hostPart[hostPart.index(after: close)...]
                if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty { return nil }
                hostPart = hostPart[hostPart.index(after: hostPart.startIndex)..<close]
            } else if let colon = hostPart.lastIndex(of: ":") {
                portText = hostPart[hostPart.index(after: colon)...]
                hostPart = hostPart[..<colon]
            }
            guard !hostPart.isEmpty, !hostPart.contains(where: { $0 == "@" || $0 == " " }) else { return nil }
            host = String(hostPart)
            if let portText {
                guard let p = UInt16(portText), p > 0 else { return nil }
                port = p
            } else {
                port = secure ? 443 : 80
            }
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    var timeoutSeconds = 10
    /// A PEM file of CAs to trust for HTTPS instead of the system's store.
    var caFile: String?
    /// Skip certificate verification (HTTPS).
    var insecure = false

    /// Sends `method` to `target` with `Authorization: Bearer token` (and `headers`); returns the status code.
    func status(_ method: String, _ target: Target, token: String, headers: [(String, String)] = []) throws(Failure) -> Int {
        let fd = try connect(target)
        defer { close(fd) }
        var request = "\(method) \(target.target) HTTP/1.1\r\nHost: \(target.authority)\r\nAuthorization: Bearer \(token)\r\n"
        request += "User-Agent: mockidp-probe\r\nAccept: */*\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        if !["GET", "HEAD", "DELETE", "OPTIONS"].contains(method) { request += "Content-Length: 0\r\n" }
        request += "\r\n"
        let head: [UInt8]
        if target.secure {
            head = try withTLS(fd, target) { ssl throws(Failure) in
                try Self.writeAll(Array(request.utf8)) { Int(SSL_write(ssl, $0, Int32($1))) }
                return try Self.readHead { Int(SSL_read(ssl, $0, Int32($1))) }
            }
        } else {
            try Self.writeAll(Array(request.utf8)) { Glibc.write(fd, $0, $1) }
            head = try Self.readHead { Glibc.read(fd, $0, $1) }
        }
        // "HTTP/1.1 200 OK"
        let line = String(decoding: head.prefix { $0 != 0x0D && $0 != 0x0A }, as: UTF8.self)
        let parts = line.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let code = Int(parts[1]), (100...599).contains(code) else {
            throw Failure(description: "the answer is not HTTP/1.x: \(line.prefix(80))")
        }
        return code
    }

    private func connect(_ target: Target) throws(Failure) -> Int32 {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(target.host, String(target.port), &hints, &list)
        guard rc == 0, let list else {
            throw Failure(description: "cannot resolve \(target.host): \(String(cString: gai_strerror(rc)))")
        }
        defer { freeaddrinfo(list) }
        var lastError: Int32 = 0
        var cursor: UnsafeMutablePointer<addrinfo>? = list
        while let info = cursor {
            cursor = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            guard fd >= 0 else { lastError = errno; continue }
            var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            if Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { return fd }
            lastError = errno
            close(fd)
        }
        throw Failure(description: "cannot connect to \(target.authority): \(String(cString: strerror(lastError)))")
    }

    private func withTLS<T>(_ fd: Int32, _ target: Target, _ body: (OpaquePointer) throws(Failure) -> T) throws(Failure) -> T {
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw Self.tlsFailure("SSL_CTX_new") }
        defer { SSL_CTX_free(context) }
        _ = CTLS_set_min_tls12(context)
        if !insecure {
            SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
            if let caFile {
                guard SSL_CTX_load_verify_locations(context, caFile, nil) == 1 else { throw Self.tlsFailure("reading \(caFile)") }
            } else {
                SSL_CTX_set_default_verify_paths(context)
            }
        }
        guard let ssl = SSL_new(context) else { throw Self.tlsFailure("SSL_new") }
        defer { SSL_free(ssl) }
        SSL_set_fd(ssl, fd)
        let isAddress = target.host.contains(":") || target.host.allSatisfy { $0.isNumber || $0 == "." }
        if !isAddress { _ = CTLS_set_server_name(ssl, target.host) }
        if !insecure {
            let named = isAddress ? X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), target.host) : SSL_set1_host(ssl, target.host)
            guard named == 1 else { throw Self.tlsFailure("naming the host to verify") }
        }
        guard SSL_connect(ssl) == 1 else {
            let verify = SSL_get_verify_result(ssl)
            if verify != Int(X509_V_OK) {
                throw Failure(description: "TLS: the API's certificate is not trusted (\(String(cString: X509_verify_cert_error_string(verify)))); pass --cacert FILE or --insecure")
            }
            throw Self.tlsFailure("the TLS handshake")
        }
        defer { SSL_shutdown(ssl) }
        return try body(ssl)
    }

    private static func tlsFailure(_ what: String) -> Failure {
        let code = ERR_get_error()
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        ERR_clear_error()
        let end = buffer.firstIndex(of: 0) ?? buffer.count
        return Failure(description: "TLS: \(what) failed" + (code == 0 ? "" : ": " + String(decoding: buffer[..<end].map { UInt8(bitPattern: $0) }, as: UTF8.self)))
    }

    private static func writeAll(_ bytes: [UInt8], _ write: (UnsafeRawPointer, Int) -> Int) throws(Failure) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { write($0.baseAddress! + sent, bytes.count - sent) }
            guard n > 0 else { throw Failure(description: "the connection closed while sending the request") }
            sent += n
        }
    }

    /// Reads until the end of the status line (the rest of the answer is not needed).
    private static func readHead(_ read: (UnsafeMutableRawPointer, Int) -> Int) throws(Failure) -> [UInt8] {
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !head.contains(0x0A) {
            let n = buffer.withUnsafeMutableBytes { read($0.baseAddress!, $0.count) }
            guard n > 0 else {
                if head.isEmpty { throw Failure(description: "the API closed the connection without answering (or did not answer in time)") }
                break
            }
            head += buffer[..<n]
            if head.count > 65536 { break }
        }
        return head
    }
}
