import CMicroHTTPD
import Glibc

/// Owns one libmicrohttpd daemon (one listener) and the C memory it reads: the socket address and the PEM strings.
///
/// Start, drain and stop are called by `HTTPServer` under its lock; worker threads only see `context`.
final class MicroHTTPDaemon: @unchecked Sendable {
    /// What the callbacks see; outlives the daemon because this object stops the daemon before releasing it.
    let context: DaemonContext
    private var daemon: OpaquePointer?
    /// The listening socket taken back by `MHD_quiesce_daemon`; closed only after `MHD_stop_daemon`, since a
    /// worker thread may still hold it until then (microhttpd.h).
    private var quiescedSocket: Int32 = -1
    /// malloc'ed memory libmicrohttpd was given pointers to; freed after the daemon stops.
    private var cMemory: [UnsafeMutableRawPointer] = []

    init(context: DaemonContext) {
        self.context = context
    }

    deinit {
        stop()
        for pointer in cMemory { free(pointer) }
    }

    /// Binds and starts the daemon; returns the port it is bound to.
    func start(
        _ address: ListenAddress, listener: HTTPServer.Listener, configuration: HTTPServer.Configuration
    ) throws(HTTPServerError) -> UInt16 {
        precondition(daemon == nil, "a MicroHTTPDaemon starts once")
        var flags = MHD_USE_AUTO_INTERNAL_THREAD.rawValue | MHD_USE_ITC.rawValue | MHD_USE_ERROR_LOG.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue
        if address.family == AF_INET6 { flags |= MHD_USE_IPv6.rawValue }
        let cls = Unmanaged.passUnretained(context).toOpaque()

        guard let socketAddress = copyToC(address.storage) else {
            throw .cannotListen(on: address.display, "out of memory", listener: listener)
        }
        var options: [MHD_OptionItem] = [
            // First, so that libmicrohttpd's own start-up messages come here too.
            callback(.EXTERNAL_LOGGER, unsafeBitCast(AccessHandler.logLibraryMessage, to: Int.self), cls),
            callback(.URI_LOG_CALLBACK, unsafeBitCast(AccessHandler.beginRequest, to: Int.self), cls),
            callback(.NOTIFY_COMPLETED, unsafeBitCast(AccessHandler.endRequest, to: Int.self), cls),
            callback(.UNESCAPE_CALLBACK, unsafeBitCast(AccessHandler.keepEscapes, to: Int.self), nil),
            MHD_OptionItem(option: .SOCK_ADDR, value: 0, ptr_value: socketAddress),
            MHD_OptionItem(option: .CONNECTION_LIMIT, value: max(1, configuration.connectionLimit), ptr_value: nil),
            // libmicrohttpd's default is 0, which never closes an idle or half-sent connection.
            MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: max(1, configuration.connectionTimeout), ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: max(8192, configuration.connectionMemoryLimit), ptr_value: nil),
        ]
        if configuration.threadsPerListener > 1 {
            options.append(MHD_OptionItem(option: .THREAD_POOL_SIZE, value: configuration.threadsPerListener, ptr_value: nil))
        }
        if let tls = configuration.tls {
            flags |= MHD_USE_TLS.rawValue
            guard let key = copyToC(tls.privateKeyPEM), let certificate = copyToC(tls.certificateChainPEM) else {
                throw .cannotListen(on: address.display, "out of memory", listener: listener)
            }
            options.append(MHD_OptionItem(option: .HTTPS_MEM_KEY, value: 0, ptr_value: key))
            options.append(MHD_OptionItem(option: .HTTPS_MEM_CERT, value: 0, ptr_value: certificate))
        }
        options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))

        context.lastLibraryMessage.withLock { $0 = nil }
        let started: OpaquePointer? = options.withUnsafeBufferPointer { items in
            CMicroHTTPD_start(flags, listener.port, AccessHandler.handleRequest, cls, items.baseAddress)
        }
        guard let started else {
            let libraryMessage = context.lastLibraryMessage.withLock { $0 }
            let reason = address.bindFailureReason()
                ?? libraryMessage.map { "libmicrohttpd could not start (\($0))" }
                ?? "libmicrohttpd could not start"
            throw .cannotListen(on: address.display, reason, listener: listener)
        }
        daemon = started
        let port = CMicroHTTPD_bound_port(started)
        context.localPort.store(port, ordering: .relaxed)
        return port
    }

    /// Stops accepting: new connections are refused, open ones keep being served, and responses from now on
    /// carry `Connection: close`.
    func beginDraining() {
        context.isDraining.store(true, ordering: .relaxed)
        guard let daemon, quiescedSocket < 0 else { return }
        quiescedSocket = MHD_quiesce_daemon(daemon)
        // shutdown(2) takes a listening socket out of LISTEN on Linux, so connection attempts are refused at
        // once, while the descriptor itself stays valid for any worker thread that still holds it.
        if quiescedSocket >= 0 {
            _ = shutdown(quiescedSocket, Int32(SHUT_RDWR))
        } else {
            context.logger.warning("libmicrohttpd would not stop accepting connections; they are closed at the end of the stop")
        }
    }

    /// Requests read but not yet completed.
    var requestsInFlight: Int {
        context.requestsInFlight.load(ordering: .acquiring)
    }

    /// Closes every connection and joins the worker threads; requests still running are cut off.
    func stop() {
        if let daemon {
            self.daemon = nil
            AccessHandler.resumeAll(context)
            MHD_stop_daemon(daemon)
        }
        if quiescedSocket >= 0 {
            close(quiescedSocket)
            quiescedSocket = -1
        }
    }

    private func callback(_ option: MHD_OPTION, _ function: Int, _ cls: UnsafeMutableRawPointer?) -> MHD_OptionItem {
        // Two-argument options in an option array: the function pointer as intptr_t in `value`, its cls in `ptr_value`.
        MHD_OptionItem(option: option, value: function, ptr_value: cls)
    }

    private func copyToC(_ text: String) -> UnsafeMutableRawPointer? {
        guard let copy = strdup(text) else { return nil }
        cMemory.append(UnsafeMutableRawPointer(copy))
        return UnsafeMutableRawPointer(copy)
    }

    private func copyToC(_ storage: sockaddr_storage) -> UnsafeMutableRawPointer? {
        guard let copy = malloc(MemoryLayout<sockaddr_storage>.size) else { return nil }
        copy.initializeMemory(as: sockaddr_storage.self, to: storage)
        cMemory.append(copy)
        return copy
    }
}
