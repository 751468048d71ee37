import Glibc
import Logging
import Synchronization

/// An HTTP/1.1 server on libmicrohttpd: one daemon per listener, a pool of worker threads each, optional TLS,
/// graceful stop. Requests are read completely (body included) and answered by one synchronous responder.
///
/// The responder is called on worker threads, concurrently; it must be thread-safe and must return. A slow
/// responder holds up the other connections of its worker thread; a trap in it ends the process (Swift cannot
/// catch traps). Do not call `stop` from inside the responder: stopping waits for the worker threads.
package final class HTTPServer: Sendable {
    private enum Phase {
        case idle
        case running([MicroHTTPDaemon])
        case stopped
    }

    private struct State {
        var phase: Phase = .idle
        var bound: [BoundListener] = []
    }

    private let configuration: Configuration
    private let logger: Logger
    private let responder: @Sendable (HTTPRequest) -> HTTPResponse
    private let rejections: (@Sendable (HTTPRejection) -> Void)?
    private let state = Mutex(State())

    /// A server that will answer every request with `responder` once started; `rejections` hears of the requests
    /// the HTTP layer refuses before the responder sees them (413, malformed request targets).
    package init(configuration: Configuration, logger: Logger, rejections: (@Sendable (HTTPRejection) -> Void)? = nil,
                responder: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        self.configuration = configuration
        self.logger = logger
        self.rejections = rejections
        self.responder = responder
    }

    deinit {
        stop()
    }

    /// Binds and starts every listener, or none: when one fails, those already started are stopped and the error
    /// names the failing address (e.g. "cannot listen on 127.0.0.1:8443: the address is already in use").
    package func start() throws(HTTPServerError) {
        try state.withLock { (state: inout State) throws(HTTPServerError) in
            guard case .idle = state.phase else { throw HTTPServerError("the server was already started") }
            try validate()
            var daemons: [MicroHTTPDaemon] = []
            var bound: [BoundListener] = []
            for listener in configuration.listeners {
                let daemon = MicroHTTPDaemon(context: DaemonContext(
                    responder: responder,
                    logger: logger,
                    isSecure: listener.isSecure(in: configuration),
                    maximumBodySize: configuration.maximumBodySize,
                    maximumHeaderSize: configuration.maximumHeaderSize,
                    perAddressConnectionLimit: configuration.perAddressConnectionLimit,
                    rejections: rejections
                ))
                do throws(HTTPServerError) {
                    let port = try daemon.start(ListenAddress(listener), listener: listener, configuration: configuration)
                    daemons.append(daemon)
                    bound.append(BoundListener(host: listener.host, port: port, isSecure: listener.isSecure(in: configuration)))
                } catch {
                    for started in daemons { started.stop() }
                    throw error
                }
            }
            state.phase = .running(daemons)
            state.bound = bound
        }
        if let available = DescriptorLimit.raiseToHardLimit() {
            let wanted = configuration.connectionLimit * configuration.listeners.count + DescriptorLimit.reserve
            if available < wanted {
                logger.notice("the open-file limit (\(available)) is below what \(configuration.listeners.count) listener(s) of \(configuration.connectionLimit) connections need (\(wanted)): connections beyond it wait in the kernel's queue; raise it with 'ulimit -n'")
            }
        }
        for listener in boundListeners {
            logger.debug("listening on \(listener.baseURL)")
        }
    }

    /// The listeners after `start`, in configuration order, with their real ports; empty before.
    package var boundListeners: [BoundListener] {
        state.withLock { $0.bound }
    }

    /// Stops gracefully: new connections are refused at once, requests already under way may finish for up to
    /// `gracePeriod`, then every connection is closed and the worker threads end. Idempotent; `deinit` does it too.
    ///
    /// Only requests count as under way (from their request line until their response is sent): idle keep-alive
    /// connections do not hold the stop up, they are closed at the end, and responses sent while draining carry
    /// `Connection: close`. A connection that has sent part of a request counts until it finishes, times out
    /// (`connectionTimeout`) or the grace period ends.
    package func stop(gracePeriod: Duration = .seconds(5)) {
        let daemons: [MicroHTTPDaemon] = state.withLock { state in
            defer { state.phase = .stopped }
            if case .running(let daemons) = state.phase { return daemons }
            return []
        }
        guard !daemons.isEmpty else { return }
        for daemon in daemons { daemon.beginDraining() }
        let deadline = DrainSignal.deadline(after: gracePeriod)
        for daemon in daemons {
            _ = daemon.context.drained.wait(until: deadline) { daemon.requestsInFlight == 0 }
        }
        let unfinished = daemons.reduce(0) { $0 + $1.requestsInFlight }
        if unfinished > 0 {
            logger.warning("stopping with \(unfinished) request(s) still in flight after the grace period of \(gracePeriod)")
        }
        for daemon in daemons { daemon.stop() }
    }

    private func validate() throws(HTTPServerError) {
        guard !configuration.listeners.isEmpty else { throw HTTPServerError("the configuration has no listeners") }
        guard configuration.threadsPerListener >= 1 else { throw HTTPServerError("threadsPerListener must be at least 1") }
        guard configuration.maximumBodySize >= 0 else { throw HTTPServerError("maximumBodySize must not be negative") }
        guard configuration.connectionLimit >= 1 else { throw HTTPServerError("connectionLimit must be at least 1") }
        guard configuration.perAddressConnectionLimit >= 0 else {
            throw HTTPServerError("perAddressConnectionLimit must not be negative")
        }
        guard configuration.connectionTimeout >= 1 else { throw HTTPServerError("connectionTimeout must be at least 1 second") }
        guard configuration.maximumHeaderSize >= 8192 else {
            throw HTTPServerError("maximumHeaderSize must be at least 8192 bytes")
        }
    }
}
