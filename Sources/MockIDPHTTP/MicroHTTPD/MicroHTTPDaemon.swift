import CMicroHTTPD
import Glibc

/// Owns one listener: its listening socket and accepting thread (`ConnectionAcceptor`), and one libmicrohttpd
/// daemon per worker thread, with the C memory they read (the PEM strings).
///
/// Start, drain and stop are called by `HTTPServer` under its lock; worker threads only see `context`.
final class MicroHTTPDaemon: @unchecked Sendable {
    /// What the callbacks see; outlives the daemons because this object stops them before releasing it.
    let context: DaemonContext
    private var daemons: [OpaquePointer] = []
    private var acceptor: ConnectionAcceptor?
    /// malloc'ed memory libmicrohttpd was given pointers to; freed after the daemons stop.
    private var cMemory: [UnsafeMutableRawPointer] = []

    init(context: DaemonContext) {
        self.context = context
    }

    deinit {
        stop()
        for pointer in cMemory { free(pointer) }
    }

    /// Binds the listening socket, starts one daemon per worker thread and the accepting thread; returns the port.
    func start(
        _ address: ListenAddress, listener: HTTPServer.Listener, configuration: HTTPServer.Configuration
    ) throws(HTTPServerError) -> UInt16 {
        precondition(daemons.isEmpty && acceptor == nil, "a MicroHTTPDaemon starts once")
        let socket: Int32
        switch address.listeningSocket(backlog: SOMAXCONN) {
        case .success(let fd): socket = fd
        case .failure(let failure): throw .cannotListen(on: address.display, failure.reason, listener: listener)
        }
        let workers = max(1, configuration.threadsPerListener)
        // Each daemon takes its share of the connection limit, as libmicrohttpd's own pool would.
        let limitPerWorker = max(1, (max(1, configuration.connectionLimit) + workers - 1) / workers)
        do throws(HTTPServerError) {
            for _ in 0..<workers {
                daemons.append(try startDaemon(address, listener: listener, configuration: configuration,
                                               connectionLimit: limitPerWorker))
            }
            let acceptor = ConnectionAcceptor(socket: socket, daemons: daemons, context: context)
            try acceptor.start()
            self.acceptor = acceptor
        } catch {
            for daemon in daemons { MHD_stop_daemon(daemon) }
            daemons = []
            close(socket)
            throw error
        }
        let port = ListenAddress.boundPort(of: socket)
        context.localPort.store(port, ordering: .relaxed)
        return port
    }

    /// One daemon with one internal worker thread and no listening socket of its own.
    private func startDaemon(
        _ address: ListenAddress, listener: HTTPServer.Listener, configuration: HTTPServer.Configuration, connectionLimit: Int
    ) throws(HTTPServerError) -> OpaquePointer {
        var flags = MHD_USE_AUTO_INTERNAL_THREAD.rawValue | MHD_USE_ITC.rawValue | MHD_USE_ERROR_LOG.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_NO_LISTEN_SOCKET.rawValue
        if address.family == AF_INET6 { flags |= MHD_USE_IPv6.rawValue }
        let cls = Unmanaged.passUnretained(context).toOpaque()
        var options: [MHD_OptionItem] = [
            // First, so that libmicrohttpd's own start-up messages come here too.
            callback(.EXTERNAL_LOGGER, unsafeBitCast(AccessHandler.logLibraryMessage, to: Int.self), cls),
            callback(.URI_LOG_CALLBACK, unsafeBitCast(AccessHandler.beginRequest, to: Int.self), cls),
            callback(.NOTIFY_COMPLETED, unsafeBitCast(AccessHandler.endRequest, to: Int.self), cls),
            callback(.UNESCAPE_CALLBACK, unsafeBitCast(AccessHandler.keepEscapes, to: Int.self), nil),
            MHD_OptionItem(option: .CONNECTION_LIMIT, value: connectionLimit, ptr_value: nil),
            // libmicrohttpd's default is 0, which never closes an idle or half-sent connection.
            MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: max(1, configuration.connectionTimeout), ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: context.connectionMemoryLimit, ptr_value: nil),
        ]
        if context.addressConnections.limit > 0 {
            options.append(callback(.NOTIFY_CONNECTION, unsafeBitCast(AddressConnections.notify, to: Int.self), cls))
        }
        if let tls = configuration.tls, listener.isSecure(in: configuration) {
            flags |= MHD_USE_TLS.rawValue
            guard let key = copyToC(tls.privateKeyPEM), let certificate = copyToC(tls.certificateChainPEM) else {
                throw .cannotListen(on: address.display, "out of memory", listener: listener)
            }
            options.append(MHD_OptionItem(option: .HTTPS_MEM_KEY, value: 0, ptr_value: key))
            options.append(MHD_OptionItem(option: .HTTPS_MEM_CERT, value: 0, ptr_value: certificate))
            guard let priorities = copyToC(Self.tlsPriorities) else {
                throw .cannotListen(on: address.display, "out of memory", listener: listener)
            }
            options.append(MHD_OptionItem(option: .HTTPS_PRIORITIES, value: 0, ptr_value: priorities))
        }
        options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))

        context.lastLibraryMessage.withLock { $0 = nil }
        let started: OpaquePointer? = options.withUnsafeBufferPointer { items in
            CMicroHTTPD_start(flags, 0, AccessHandler.handleRequest, cls, items.baseAddress)
        }
        guard let started else {
            let libraryMessage = context.lastLibraryMessage.withLock { $0 }
            let reason = libraryMessage.map { "libmicrohttpd could not start (\($0))" } ?? "libmicrohttpd could not start"
            throw .cannotListen(on: address.display, reason, listener: listener)
        }
        return started
    }

    /// GnuTLS's priority string for the TLS listeners: its defaults, but TLS 1.2 or 1.3 only. Entra refuses TLS 1.0
    /// and 1.1 (Microsoft's TLS 1.0/1.1 retirement for Entra ID), and a client that works here must work there.
    static let tlsPriorities = "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2"

    /// Stops accepting: new connections are refused, open ones keep being served, and responses from now on
    /// carry `Connection: close`.
    func beginDraining() {
        context.isDraining.store(true, ordering: .sequentiallyConsistent)
        acceptor?.stopAccepting()
    }

    /// Requests read but not yet completed.
    var requestsInFlight: Int {
        context.requestsInFlight.load(ordering: .sequentiallyConsistent)
    }

    /// Closes every connection and joins the worker threads; requests still running are cut off.
    func stop() {
        if let acceptor {
            self.acceptor = nil
            acceptor.join()
        }
        guard !daemons.isEmpty else { return }
        let stopping = daemons
        daemons = []
        AccessHandler.resumeAll(context)
        for daemon in stopping { MHD_stop_daemon(daemon) }
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
}
