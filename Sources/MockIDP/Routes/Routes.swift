import Logging
import MockIDPCore
import MockIDPHTTP
import MockIDPJOSE

/// The HTTP face of the provider, its edge: a route for each row of the route list (`EndpointRoute`, `ControlCall.paths`,
/// the managed-identity hosts', Graph's), each mapping a request to a Core call and its result to a response
/// (`EndpointHandlers`).
///
/// The edge works in this order for every request: match the route; resolve the request's context once (scheme,
/// host, base URL, cloud); then the route's middleware (the control API's access rule, the dialect, host refusal,
/// injected faults); then the handler.
/// Every request is logged once, without secrets, and recorded for `/_mockidp/requests`.
struct Routes: Sendable {
    let handlers: EndpointHandlers
    private let table: RouteTable<Route>

    init(provider: IdentityProvider, options: ServerOptions, logger: Logger) {
        handlers = EndpointHandlers(provider: provider, options: options, logger: logger)
        table = Self.makeTable(handlers)
    }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        let start = ContinuousClock.now
        var response: HTTPResponse
        switch table.match(method: request.method, path: request.path) {
        case .found(let route, let parameters):
            // The edge: the request's scope and its one directory snapshot, taken once.
            response = route.respond(request, parameters, handlers.scope(request), handlers)
        case .methodNotAllowed(let allowed):
            response = Router.methodNotAllowed(allowed)
        case .notFound:
            response = EndpointHandlers.jsonError(status: .notFound, error: .notFound, description: "No endpoint at \(request.method) \(request.path).")
            response.rejectionReason = "no endpoint at \(request.path)"
        }
        record(request, &response, elapsed: ContinuousClock.now - start)
        return response
    }

    /// Logs the request (method, path, never the query: it may hold codes or hints; status and time) and records it
    /// for `/_mockidp/requests`, with the reason of a rejection.
    private func record(_ request: HTTPRequest, _ response: inout HTTPResponse, elapsed: Duration) {
        let logger = handlers.logger
        let status = response.status.rawValue
        if logger.logLevel <= .info {
            let ms = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
            logger.info(Logger.Message(stringLiteral: Self.logLine(request.method, request.path, status, milliseconds: ms)))
        }
        if status >= 400, response.rejectionReason == nil {
            response.rejectionReason = status == 405 ? "\(request.path) does not accept \(request.method) (allowed: \(response.headers["Allow"] ?? "none"))"
                : "the server answered \(status)"
        }
        // Successful control calls and health checks stay out of the log, so it shows the requests under test.
        let isControl = Self.isControlPath(request.path)
        if !isControl || response.rejectionReason != nil {
            handlers.requestLog.record(RequestLog.Entry(method: request.method, path: request.path, status: status,
                                                        reason: response.rejectionReason))
        }
    }

    /// The request log's message, `GET /path 200 0.120ms`, written straight into one string's storage.
    static func logLine(_ method: String, _ path: String, _ status: Int, milliseconds: Double) -> String {
        let scaled = Int((milliseconds * 1000).rounded())
        return String(unsafeUninitializedCapacity: method.utf8.count + path.utf8.count + 64) { buffer in
            var o = 0
            func put(_ text: String) {
                // Native strings lend their bytes; only others are walked.
                let copied: Int? = text.utf8.withContiguousStorageIfAvailable { bytes in
                    UnsafeMutableBufferPointer(rebasing: buffer[o...]).initialize(fromContentsOf: bytes)
                }
                if let copied { o += copied; return }
                for byte in text.utf8 { buffer[o] = byte; o += 1 }
            }
            func put(_ byte: UInt8) { buffer[o] = byte; o += 1 }
            // Statuses and elapsed times are never negative.
            func put(_ value: Int, width: Int = 1) {
                var digits = 1
                var rest = value.magnitude / 10
                while rest > 0 { digits += 1; rest /= 10 }
                var v = value.magnitude
                let end = o + max(digits, width)
                for i in stride(from: end - 1, through: o, by: -1) {
                    buffer[i] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: v % 10)
                    v /= 10
                }
                o = end
            }
            put(method)
            put(UInt8(ascii: " "))
            put(path)
            put(UInt8(ascii: " "))
            put(status)
            put(UInt8(ascii: " "))
            put(scaled / 1000)
            put(UInt8(ascii: "."))
            put(scaled % 1000, width: 3)
            put(UInt8(ascii: "m"))
            put(UInt8(ascii: "s"))
            return o
        }
    }

    /// Whether `path` starts with the control API's prefix, without regard to ASCII case.
    private static func isControlPath(_ path: String) -> Bool {
        var characters = path.utf8.makeIterator()
        for expected in ControlCall.prefix.utf8 {
            guard let c = characters.next() else { return false }
            let lower = c >= 0x41 && c <= 0x5A ? c | 0x20 : c
            guard lower == expected else { return false }
        }
        return true
    }

    /// The route list: the control API's routes, then `EndpointRoute.entra` and `.b2c` (each row's columns),
    /// the managed-identity hosts' and Graph's.
    private static func makeTable(_ h: EndpointHandlers) -> RouteTable<Route> {
        var table = RouteTable<Route>()
        EndpointHandlers.addControlRoutes(to: &table, h)
        precondition(EndpointRoute.entra.map(\.template) == EndpointTable.paths.map(\.template), "one row per endpoint, in EndpointTable's order")
        for row in EndpointRoute.entra { row.add(to: &table, h) }
        for row in EndpointRoute.b2c { row.add(to: &table, h) }
        ManagedIdentityRoutes.add(to: &table, h)
        EndpointHandlers.addGraphRoutes(to: &table, h)
        return table
    }
}
