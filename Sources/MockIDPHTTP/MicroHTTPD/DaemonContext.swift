import CMicroHTTPD
import Logging
import Synchronization

/// A connection suspended while its response waits out a delay (libmicrohttpd's pointer, valid until resumed).
struct SuspendedConnection: @unchecked Sendable {
    let connection: OpaquePointer
}

/// A request the HTTP layer itself refused before any responder saw it (413, a malformed request target).
package struct HTTPRejection: Sendable {
    /// The request method.
    package var method: String
    /// The request path without its query (as sent, not decoded).
    package var path: String
    /// The status sent.
    package var status: Int
    /// Why, in words.
    package var reason: String
}

/// What libmicrohttpd's callbacks see of one listener (their `cls` pointer): the responder, the limits,
/// and counters that the stopping thread reads while worker threads update them.
final class DaemonContext: Sendable {
    let responder: @Sendable (HTTPRequest) -> HTTPResponse
    let logger: Logger
    let isSecure: Bool
    let maximumBodySize: Int
    /// The most of the connection's memory a request's head may take (`RequestHead.footprint`); more gets 431.
    let maximumHeaderSize: Int
    /// libmicrohttpd's memory per connection, which holds the request head and the response's header fields: the
    /// head's maximum and the room kept for the response's head.
    let connectionMemoryLimit: Int
    /// The bound port; 0 until the daemon reports it (a request could in theory arrive first).
    let localPort = Atomic<UInt16>(0)
    /// Requests whose request line has been read and that have not completed yet.
    let requestsInFlight = Atomic<Int>(0)
    /// Set when stopping begins: responses then carry `Connection: close` so clients leave.
    let isDraining = Atomic<Bool>(false)
    /// Signalled while draining whenever a request completes.
    let drained = DrainSignal()
    /// The last message libmicrohttpd logged, to explain a failed start.
    let lastLibraryMessage = Mutex<String?>(nil)
    /// Connections suspended while a delayed response waits, by suspension number; resumed by their timer or at stop.
    let suspended = Mutex<[Int: SuspendedConnection]>([:])
    let nextSuspension = Atomic<Int>(0)
    /// Set (under `suspended`'s lock) when stopping resumes every connection: none may be suspended after that.
    let suspensionsClosed = Atomic<Bool>(false)
    /// Told of every request the HTTP layer refuses itself.
    let rejections: (@Sendable (HTTPRejection) -> Void)?
    /// Open connections by client address, for the per-address limit.
    let addressConnections: AddressConnections

    init(
        responder: @escaping @Sendable (HTTPRequest) -> HTTPResponse,
        logger: Logger,
        isSecure: Bool,
        maximumBodySize: Int,
        maximumHeaderSize: Int = 64 * 1024,
        perAddressConnectionLimit: Int = 0,
        rejections: (@Sendable (HTTPRejection) -> Void)? = nil
    ) {
        addressConnections = AddressConnections(limit: perAddressConnectionLimit)
        self.rejections = rejections
        self.responder = responder
        self.logger = logger
        self.isSecure = isSecure
        self.maximumBodySize = maximumBodySize
        self.maximumHeaderSize = maximumHeaderSize
        connectionMemoryLimit = maximumHeaderSize + HTTPServer.Configuration.responseHeadReserve
    }
}
