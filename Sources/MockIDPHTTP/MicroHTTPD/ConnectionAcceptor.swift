import CMicroHTTPD
import Glibc

/// Accepts connections on one listening socket, on a thread of its own, and hands them in turn to the listener's
/// libmicrohttpd daemons (one worker thread each) with `MHD_add_connection`.
///
/// Why not libmicrohttpd's own thread pool: there every worker polls the shared listening socket and accepts up to
/// ten connections per wake-up, so a burst of connections often lands on one worker while the other idles.
/// Handing connections out in turn keeps every worker busy.
final class ConnectionAcceptor: @unchecked Sendable {
    /// The listening socket; owned here and closed by `join`.
    private let socket: Int32
    /// The daemons, started with `MHD_USE_NO_LISTEN_SOCKET`; they outlive the accepting thread (`join` first).
    private let daemons: [OpaquePointer]
    private let context: DaemonContext
    private var thread: pthread_t?

    init(socket: Int32, daemons: [OpaquePointer], context: DaemonContext) {
        precondition(!daemons.isEmpty, "an acceptor hands connections to at least one daemon")
        self.socket = socket
        self.daemons = daemons
        self.context = context
    }

    /// Starts the accepting thread.
    func start() throws(HTTPServerError) {
        var thread = pthread_t()
        let retained = Unmanaged.passRetained(self).toOpaque()
        guard pthread_create(&thread, nil, Self.threadMain, retained) == 0 else {
            Unmanaged<ConnectionAcceptor>.fromOpaque(retained).release()
            throw HTTPServerError("cannot start the accepting thread")
        }
        self.thread = thread
    }

    /// Stops accepting: shutdown(2) takes the socket out of LISTEN on Linux, so connection attempts are refused at
    /// once and the blocked accept(2) returns.
    func stopAccepting() {
        _ = shutdown(socket, Int32(SHUT_RDWR))
    }

    /// Stops accepting, waits for the accepting thread to end and closes the socket.
    func join() {
        stopAccepting()
        if let thread {
            self.thread = nil
            pthread_join(thread, nil)
        }
        close(socket)
    }

    /// The accepting thread's body (a C callback: a `static let` of a non-isolated type, as docs/layout.md asks).
    private static let threadMain: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { raw in
        guard let raw else { return nil }
        Unmanaged<ConnectionAcceptor>.fromOpaque(raw).takeRetainedValue().acceptUntilShutdown()
        return nil
    }

    private func acceptUntilShutdown() {
        var next = 0
        while true {
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutablePointer(to: &address) { raw in
                raw.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(socket, $0, &length) }
            }
            if fd < 0 {
                switch errno {
                case EINTR, ECONNABORTED, EPROTO, EAGAIN:
                    continue
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    // Out of descriptors or memory: the kernel keeps the connection queued; try again shortly
                    // rather than spin.
                    context.logger.warning("cannot accept a connection: \(String(cString: strerror(errno)))")
                    var pause = timespec(tv_sec: 0, tv_nsec: 50_000_000)
                    nanosleep(&pause, nil)
                    continue
                default:
                    return  // EINVAL after shutdown(2): stopping
                }
            }
            // Not inherited by child processes (accept4 is not visible to Swift here); libmicrohttpd makes the
            // socket non-blocking itself.
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            let atLimit = withUnsafePointer(to: &address) { raw in
                raw.withMemoryRebound(to: sockaddr.self, capacity: 1) { context.addressConnections.isAtLimit($0) }
            }
            if atLimit {
                close(fd)  // the client sees its connection closed at once, as at the connection limit
                continue
            }
            let daemon = daemons[next % daemons.count]
            next &+= 1
            // Closes the socket itself when the daemon is at its connection limit.
            _ = withUnsafePointer(to: &address) { raw in
                raw.withMemoryRebound(to: sockaddr.self, capacity: 1) { MHD_add_connection(daemon, fd, $0, length) }
            }
        }
    }
}
