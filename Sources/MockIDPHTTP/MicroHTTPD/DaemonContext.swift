import Logging
import Synchronization

/// What libmicrohttpd's callbacks see of one listener (their `cls` pointer): the responder, the limits,
/// and counters that the stopping thread reads while worker threads update them.
final class DaemonContext: Sendable {
    let responder: @Sendable (HTTPRequest) -> HTTPResponse
    let logger: Logger
    let isSecure: Bool
    let maximumBodySize: Int
    /// The bound port; 0 until the daemon reports it (a request could in theory arrive first).
    let localPort = Atomic<UInt16>(0)
    /// Requests whose request line has been read and that have not completed yet.
    let requestsInFlight = Atomic<Int>(0)
    /// Set when stopping begins: responses then carry `Connection: close` so clients leave.
    let isDraining = Atomic<Bool>(false)
    /// The last message libmicrohttpd logged, to explain a failed start.
    let lastLibraryMessage = Mutex<String?>(nil)

    init(
        responder: @escaping @Sendable (HTTPRequest) -> HTTPResponse,
        logger: Logger,
        isSecure: Bool,
        maximumBodySize: Int
    ) {
        self.responder = responder
        self.logger = logger
        self.isSecure = isSecure
        self.maximumBodySize = maximumBodySize
    }
}
