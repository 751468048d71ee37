#if canImport(Glibc)
import Glibc
#endif
import CTLS

/// One connection of `BlockingHTTPClient`: a TCP socket, with OpenSSL's libssl on top for HTTPS. Owns the socket and the
/// TLS objects and frees them in `close()` (or `deinit`). Every blocking call is bounded by the client's deadline:
/// the socket's send and receive timeouts are set to the time left before each call.
final class ClientConnection {
    private let fd: Int32
    private var context: OpaquePointer?
    private var ssl: OpaquePointer?
    private let deadline: Double
    private var closed = false

    private init(fd: Int32, deadline: Double) {
        self.fd = fd
        self.deadline = deadline
    }

    deinit { close() }

    /// A connection to `target`, TLS established and the certificate verified (unless the client is `insecure`).
    static func open(_ target: BlockingHTTPClient.Target, client: BlockingHTTPClient) throws(BlockingHTTPClient.Failure) -> ClientConnection {
        let deadline = now() + client.timeoutSeconds
        let connection = ClientConnection(fd: try connect(target, deadline: deadline), deadline: deadline)
        if target.secure { try connection.startTLS(target, client: client) }
        return connection
    }

    func close() {
        guard !closed else { return }
        closed = true
        if let ssl {
            SSL_shutdown(ssl)
            SSL_free(ssl)
        }
        if let context { SSL_CTX_free(context) }
        Glibc.close(fd)
    }

    /// Sends all of `bytes`.
    func write(_ bytes: [UInt8]) throws(BlockingHTTPClient.Failure) {
        var sent = 0
        while sent < bytes.count {
            try armTimeout()
            let n = bytes.withUnsafeBytes { buffer -> Int in
                let start = buffer.baseAddress! + sent
                if let ssl { return Int(SSL_write(ssl, start, Int32(bytes.count - sent))) }
                return Glibc.send(fd, start, bytes.count - sent, Int32(MSG_NOSIGNAL))
            }
            guard n > 0 else { throw BlockingHTTPClient.Failure("the connection closed while sending the request (or the server did not take it in time)") }
            sent += n
        }
    }

    /// The next bytes received; empty at the end of the stream. Throws when the deadline passes first.
    func read() throws(BlockingHTTPClient.Failure) -> [UInt8] {
        try armTimeout()
        var buffer = [UInt8](repeating: 0, count: 16384)
        let n = buffer.withUnsafeMutableBytes { raw -> Int in
            if let ssl { return Int(SSL_read(ssl, raw.baseAddress, Int32(raw.count))) }
            return Glibc.read(fd, raw.baseAddress, raw.count)
        }
        if n > 0 { return Array(buffer[..<n]) }
        if let ssl, SSL_get_error(ssl, Int32(n)) == SSL_ERROR_ZERO_RETURN { return [] }
        if n == 0 && ssl == nil { return [] }
        if errno == EAGAIN || errno == EWOULDBLOCK || Self.now() >= deadline {
            throw BlockingHTTPClient.Failure("no answer within the time allowed")
        }
        // A peer that closes without TLS close_notify (common): the end of the stream.
        return []
    }

    /// Runs `body` with SIGPIPE blocked on this thread, and takes back a SIGPIPE it raised: a peer that closes while
    /// libssl writes would otherwise end the process (libssl writes with plain `write`, without `MSG_NOSIGNAL`).
    static func withoutSIGPIPE<T>(_ body: () throws(BlockingHTTPClient.Failure) -> T) throws(BlockingHTTPClient.Failure) -> T {
        var pipe = sigset_t()
        sigemptyset(&pipe)
        sigaddset(&pipe, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipe, &previous)
        defer {
            var pending = sigset_t()
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 {
                var now = timespec()
                _ = sigtimedwait(&pipe, nil, &now)
            }
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        return try body()
    }

    /// Sets the socket's timeouts to the time left; throws when none is.
    private func armTimeout() throws(BlockingHTTPClient.Failure) {
        try Self.armTimeout(fd, deadline: deadline)
    }

    private static func armTimeout(_ fd: Int32, deadline: Double) throws(BlockingHTTPClient.Failure) {
        let left = deadline - now()
        guard left > 0 else { throw BlockingHTTPClient.Failure("no answer within the time allowed") }
        var timeout = timeval(tv_sec: Int(left), tv_usec: Int((left - left.rounded(.down)) * 1_000_000))
        if timeout.tv_sec == 0 && timeout.tv_usec == 0 { timeout.tv_usec = 1 }
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Monotonic seconds.
    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private static func connect(_ target: BlockingHTTPClient.Target, deadline: Double) throws(BlockingHTTPClient.Failure) -> Int32 {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(target.host, String(target.port), &hints, &list)
        guard rc == 0, let list else {
            throw BlockingHTTPClient.Failure("cannot resolve \(target.host): \(String(cString: gai_strerror(rc)))")
        }
        defer { freeaddrinfo(list) }
        var lastError: Int32 = 0
        var cursor: UnsafeMutablePointer<addrinfo>? = list
        while let info = cursor {
            cursor = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), info.pointee.ai_protocol)
            guard fd >= 0 else { lastError = errno; continue }
            // On Linux the send timeout bounds connect() too.
            do { try armTimeout(fd, deadline: deadline) } catch {
                Glibc.close(fd)
                throw error
            }
            if Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { return fd }
            lastError = errno
            Glibc.close(fd)
        }
        throw BlockingHTTPClient.Failure("cannot connect to \(target.authority): \(String(cString: strerror(lastError)))")
    }

    private func startTLS(_ target: BlockingHTTPClient.Target, client: BlockingHTTPClient) throws(BlockingHTTPClient.Failure) {
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw Self.tlsFailure("SSL_CTX_new") }
        self.context = context
        _ = CTLS_set_min_tls12(context)
        if !client.insecure {
            SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
            if let caFile = client.caFile {
                guard SSL_CTX_load_verify_locations(context, caFile, nil) == 1 else { throw Self.tlsFailure("reading \(caFile)") }
            } else {
                // The system's store; OpenSSL reads SSL_CERT_FILE (and SSL_CERT_DIR) in place of its defaults
                // when set, and the default directory stays in use beside SSL_CERT_FILE.
                SSL_CTX_set_default_verify_paths(context)
                ERR_clear_error()
            }
        }
        guard let ssl = SSL_new(context) else { throw Self.tlsFailure("SSL_new") }
        self.ssl = ssl
        SSL_set_fd(ssl, fd)
        let isAddress = target.host.contains(":") || target.host.allSatisfy { $0.isNumber || $0 == "." }
        if !isAddress { _ = CTLS_set_server_name(ssl, target.host) }
        if !client.insecure {
            let named = isAddress ? X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), target.host) : SSL_set1_host(ssl, target.host)
            guard named == 1 else { throw Self.tlsFailure("naming the host to verify") }
        }
        try armTimeout()
        guard SSL_connect(ssl) == 1 else {
            let verify = SSL_get_verify_result(ssl)
            if verify != Int(X509_V_OK) {
                ERR_clear_error()
                throw BlockingHTTPClient.Failure("TLS: the server's certificate is not trusted (\(String(cString: X509_verify_cert_error_string(verify))))",
                                         isUntrustedCertificate: true)
            }
            throw Self.tlsFailure("the TLS handshake")
        }
    }

    private static func tlsFailure(_ what: String) -> BlockingHTTPClient.Failure {
        let code = ERR_get_error()
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        ERR_clear_error()
        let end = buffer.firstIndex(of: 0) ?? buffer.count
        return BlockingHTTPClient.Failure("TLS: \(what) failed" + (code == 0 ? "" : ": " + String(decoding: buffer[..<end].map { UInt8(bitPattern: $0) }, as: UTF8.self)))
    }
}
