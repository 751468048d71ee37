import CMicroHTTPD
import Dispatch
import Glibc
import Logging
import MockIDPText

/// libmicrohttpd's callbacks for one listener, and the request/response translation they do.
///
/// The callbacks are `static let`s of a non-isolated type (never closures in `main.swift`, which Swift 6 would
/// isolate to the main actor and trap on a worker thread). Their `cls` is the listener's `DaemonContext`; a
/// request's `*con_cls` is its retained `PendingRequest`. The protocol, per request:
/// 1. URI log callback: the request line is in; keep the raw target, count the request as in flight, and end
///    libmicrohttpd's own copy of the query (`hideQuery`).
/// 2. First access-handler call (headers in): answer nothing, except 413 when Content-Length is over 16 times the limit,
///    431 when the head takes more of the connection's memory than `maximumHeaderSize` (the rest is the response's),
///    and 400/501 when the request cannot be framed or read (`framingRefusal`).
///    Queueing a response here would make libmicrohttpd close the connection after it, so keep-alive needs step 4.
/// 3. Calls with upload data: append to the body (or drop it past the limit), mark it consumed.
/// 4. Last call (no upload data): build the `HTTPRequest`, call the responder, queue its response.
///    A response with a `delay` is kept, the connection suspended (no worker thread waits), and a timer resumes it;
///    libmicrohttpd then calls the handler once more, and the kept response is queued.
/// 5. NOTIFY_COMPLETED, also after an abort or a timeout: release the `PendingRequest`.
///
/// The responder runs on a worker thread and must return: it cannot be interrupted, and a trap in it ends the process.
enum AccessHandler {
    /// `MHD_OPTION_URI_LOG_CALLBACK`'s function type (the header has no typedef for it).
    typealias URILogCallback = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer?
    /// `MHD_OPTION_UNESCAPE_CALLBACK`'s function type (the header has no typedef for it).
    typealias UnescapeCallback = @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<CChar>?) -> Int

    // MARK: - Callbacks

    static let beginRequest: URILogCallback = { cls, uri, _ in
        guard let cls else { return nil }
        let context = Unmanaged<DaemonContext>.fromOpaque(cls).takeUnretainedValue()
        context.requestsInFlight.wrappingAdd(1, ordering: .relaxed)
        let target = uri.flatMap { String(validatingCString: $0) }
        if let uri { hideQuery(uri) }
        return Unmanaged.passRetained(PendingRequest(target: target)).toOpaque()
    }

    /// Ends libmicrohttpd's copy of the query right after its '?', so that it parses no query parameters.
    ///
    /// libmicrohttpd stores each query parameter as a record in the connection's memory pool, right after this
    /// callback ("log callback before we modify URI *or* args", connection.c, 0.9.75); a thousand of them exhaust the
    /// pool, and it then cannot send even its own 431: the client got no answer at all. This server decodes the raw
    /// target itself (`RequestTarget`, from the copy taken above), so libmicrohttpd's parameters were never used. The
    /// request line lives in libmicrohttpd's read buffer, which is writable; `uri` is only declared `const`.
    private static func hideQuery(_ uri: UnsafePointer<CChar>) {
        guard let question = strchr(uri, Int32(UInt8(ascii: "?"))) else { return }
        let first = UnsafeMutablePointer(mutating: question + 1)
        if first.pointee != 0 { first.pointee = 0 }
    }

    static let handleRequest: MHD_AccessHandlerCallback = {
        cls, connection, url, method, version, uploadData, uploadDataSize, requestState in
        guard let cls, let connection, let method, let uploadDataSize, let requestState else { return .NO }
        let context = Unmanaged<DaemonContext>.fromOpaque(cls).takeUnretainedValue()
        let pending: PendingRequest
        if let existing = requestState.pointee {
            pending = Unmanaged<PendingRequest>.fromOpaque(existing).takeUnretainedValue()
        } else {
            // The URI log callback always runs first; this keeps the bookkeeping whole should that ever change.
            pending = PendingRequest(target: url.flatMap { String(validatingCString: $0) })
            requestState.pointee = Unmanaged.passRetained(pending).toOpaque()
            context.requestsInFlight.wrappingAdd(1, ordering: .relaxed)
        }
        if !pending.headersSeen, let refusal = framingRefusal(pending, connection, method: method, url: url, version: version, context) {
            pending.headersSeen = true
            reject(pending, method, status: refusal.status.rawValue, refusal.reason, context)
            // Early answer: libmicrohttpd sends it and closes the connection, whose remaining bytes cannot be framed.
            return queue(.text("\(refusal.status.reasonPhrase): \(refusal.reason)\n", status: refusal.status), on: connection, context)
        }
        return handle(pending, connection, method, uploadData, uploadDataSize, context)
    }

    /// Why a request whose head just arrived cannot be answered normally, or nil:
    /// - a head that takes more of the connection's memory than `maximumHeaderSize`: 431 (RFC 6585 §5), or 414 when
    ///   the request line alone does, so that the rest of the memory is always there for the response's head;
    /// - a NUL byte in the request target (libmicrohttpd's C string would end there, and a shorter path be served): 400;
    /// - a NUL byte or a CR inside a header line, a folded line, or a field name that is not a token (RFC 9112 §5.1,
    ///   §5.2; RFC 9110 §5.5), which libmicrohttpd's fields would hide (`RequestHead.problem`): 400;
    /// - a Transfer-Encoding whose codings cannot frame the body (`transferCodingRefusal`): 400, or 501 for a coding
    ///   other than chunked before a final chunked (libmicrohttpd would wait for a body it cannot frame until the
    ///   connection times out);
    /// - Content-Length fields that disagree (RFC 9112 §6.3: unrecoverable framing, a request-smuggling vector): 400.
    /// Each is answered at once, and the connection closed.
    private static func framingRefusal(
        _ pending: PendingRequest, _ connection: OpaquePointer, method: UnsafePointer<CChar>, url: UnsafePointer<CChar>?,
        version: UnsafePointer<CChar>?, _ context: DaemonContext
    ) -> (status: HTTPStatus, reason: String)? {
        let footprint = RequestHead.footprint(connection)
        if footprint > context.maximumHeaderSize {
            // The request line alone too long: the target is (RFC 9110 §15.5.15).
            if let version, method.distance(to: version) + 8 > context.maximumHeaderSize {
                return (.uriTooLong, "the request line is longer than \(context.maximumHeaderSize) bytes")
            }
            return (.requestHeaderFieldsTooLarge,
                    "the request line and header fields take \(footprint) bytes of the connection's memory, more than \(context.maximumHeaderSize)")
        }
        // libmicrohttpd ends the target with a NUL where the space before the version was, and `version` points just
        // past it; a target that ends sooner held a NUL of its own.
        if let url, let version, let target = pending.target {
            let distance = url.distance(to: version)
            if distance > 0, distance <= 1 << 24, distance != target.utf8.count + 1 {
                return (.badRequest, "the request target contains a NUL byte")
            }
        }
        if let version, let problem = RequestHead.problem(connection, start: method, version: version) {
            return (.badRequest, problem)
        }
        let headers = headers(of: connection)
        pending.headers = headers
        var transferEncodings: [String] = []
        // Usually one length, so no set is made unless a second one differs.
        var length: String?
        var lengths: Set<String> = []
        for (name, value) in headers {
            if ASCII.caseInsensitiveEquals(name, "Transfer-Encoding") {
                transferEncodings.append(value)
            } else if ASCII.caseInsensitiveEquals(name, "Content-Length") {
                func add(_ item: Substring) {
                    let text = withoutBlanks(item)
                    if let length, length != text, lengths.isEmpty { lengths.insert(length) }
                    if !lengths.isEmpty { lengths.insert(text) }
                    if length == nil { length = text }
                }
                // Nearly always one length without a comma: no array of items is made for it.
                if value.utf8.contains(UInt8(ascii: ",")) {
                    for item in commaSeparated(value) { add(item) }
                } else {
                    add(Substring(value))
                }
            }
        }
        if !transferEncodings.isEmpty, let refusal = transferCodingRefusal(
            transferEncodings, hasContentLength: length != nil, isHTTP10: version.map { strcmp($0, "HTTP/1.0") == 0 } ?? false) {
            return refusal
        }
        if lengths.count > 1 {
            return (.badRequest, "the request has Content-Length fields that disagree (\(lengths.sorted().joined(separator: ", ")))")
        }
        return nil
    }

    /// Why the Transfer-Encoding fields of a request (their values, in order) cannot frame its body, or nil when they
    /// are the one field `chunked`:
    /// - an item that is not a coding (a token, RFC 9112 §7, with parameters after ';'): control characters, spaces,
    ///   anything else: 400;
    /// - no coding at all (an empty field), or a last coding other than chunked: 400, as RFC 9112 §6.3 demands ("the
    ///   server MUST respond with the 400 (Bad Request) status code and then close the connection");
    /// - chunked more than once (RFC 9112 §6.1), or with parameters (RFC 9112 §7.1 defines none): 400;
    /// - another coding before the final chunked: 501, as RFC 9112 §6.1 asks for a coding the server does not know;
    /// - beside Content-Length (RFC 9112 §6.1: a server MAY reject it, and must close the connection in any case), or in an
    ///   HTTP/1.0 request (RFC 9112 §6.1: its framing is faulty): 400;
    /// - chunked alone but written otherwise than as one field `chunked` (empty list items, blanks after it, a second
    ///   empty field): 501, since libmicrohttpd frames a body as chunked only for exactly that and would wait otherwise.
    private static func transferCodingRefusal(_ fields: [String], hasContentLength: Bool, isHTTP10: Bool) -> (status: HTTPStatus, reason: String)? {
        var codings: [String] = []
        var chunkedParameters = false
        for item in fields.flatMap(commaSeparated) {
            let (name, parameters) = codingParts(item)
            // RFC 9110 §5.6.1: empty list elements are ignored.
            if name.isEmpty, parameters == nil { continue }
            guard !name.isEmpty, name.utf8.allSatisfy(RequestHead.isTokenByte) else {
                return (.badRequest, "Transfer-Encoding holds an item that is not a transfer coding (a control character, a space or a NUL?)")
            }
            let coding = ASCII.lowercased(name)
            if coding == "chunked", parameters != nil { chunkedParameters = true }
            codings.append(coding)
        }
        guard let last = codings.last else { return (.badRequest, "Transfer-Encoding names no transfer coding") }
        if codings.count(where: { $0 == "chunked" }) > 1 {
            return (.badRequest, "chunked is applied more than once in Transfer-Encoding")
        }
        guard last == "chunked" else {
            return (.badRequest, "the last transfer coding is '\(last.prefix(64))', not chunked, so the body's length cannot be known")
        }
        if chunkedParameters { return (.badRequest, "chunked takes no parameters") }
        if let unknown = codings.first(where: { $0 != "chunked" }) {
            return (.notImplemented, "the transfer coding '\(unknown.prefix(64))' is not supported (only chunked is)")
        }
        if hasContentLength { return (.badRequest, "the request has both Transfer-Encoding and Content-Length") }
        if isHTTP10 { return (.badRequest, "an HTTP/1.0 request has Transfer-Encoding, which HTTP/1.0 does not define") }
        guard fields.count == 1, ASCII.caseInsensitiveEquals(fields[0], "chunked") else {
            return (.notImplemented, "Transfer-Encoding is chunked, but only written as one field 'chunked' can it be read here")
        }
        return nil
    }

    /// A list item `name *( OWS ";" OWS parameter )` cut into its name (without surrounding spaces and tabs) and
    /// what follows its first ';' (nil when there is none).
    private static func codingParts(_ item: Substring) -> (name: Substring, parameters: Substring?) {
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        let semicolon = item.utf8.firstIndex(of: UInt8(ascii: ";"))
        var name = item.utf8[..<(semicolon ?? item.utf8.endIndex)]
        while let first = name.first, isBlank(first) { name = name.dropFirst() }
        while let last = name.last, isBlank(last) { name = name.dropLast() }
        return (Substring(name), semicolon.map { Substring(item.utf8[item.utf8.index(after: $0)...]) })
    }

    /// The items of a comma-separated field value, empty ones included, cut at the comma's byte.
    private static func commaSeparated(_ value: String) -> [Substring] {
        value.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map { Substring($0) }
    }

    /// `item` without its spaces and tabs, removed by byte: filtering a field value by `Character` walks grapheme
    /// clusters, on every request that has a body.
    private static func withoutBlanks(_ item: Substring) -> String {
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard item.utf8.contains(where: isBlank) else { return String(item) }
        return String(decoding: item.utf8.filter { !isBlank($0) }, as: UTF8.self)
    }

    static let endRequest: MHD_RequestCompletedCallback = { cls, _, requestState, _ in
        guard let cls, let requestState, let pending = requestState.pointee else { return }
        requestState.pointee = nil
        Unmanaged<PendingRequest>.fromOpaque(pending).release()
        let context = Unmanaged<DaemonContext>.fromOpaque(cls).takeUnretainedValue()
        context.requestsInFlight.wrappingSubtract(1, ordering: .sequentiallyConsistent)
        if context.isDraining.load(ordering: .sequentiallyConsistent) { context.drained.notify() }
    }

    /// Leaves escapes alone: the raw target is decoded strictly by `RequestTarget`, so libmicrohttpd's lenient
    /// decoding of the URL and arguments would be wasted work.
    static let keepEscapes: UnescapeCallback = { _, _, text in
        text.map { strlen($0) } ?? 0
    }

    static let logLibraryMessage: MHD_LogCallback = { cls, format, arguments in
        guard let cls, let format, let arguments else { return }
        let context = Unmanaged<DaemonContext>.fromOpaque(cls).takeUnretainedValue()
        var buffer = [CChar](repeating: 0, count: 512)
        _ = vsnprintf(&buffer, buffer.count, format, arguments)
        var bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        while let last = bytes.last, last == 0x0A || last == 0x0D || last == 0x20 { bytes.removeLast() }
        let message = String(decoding: bytes, as: UTF8.self)
        context.lastLibraryMessage.withLock { $0 = message }
        // Debug level: libmicrohttpd reports ordinary client behaviour (a peer closing mid-request) as errors.
        context.logger.debug("libmicrohttpd: \(message)")
    }

    // MARK: - Request

    private static func handle(
        _ pending: PendingRequest,
        _ connection: OpaquePointer,
        _ method: UnsafePointer<CChar>,
        _ uploadData: UnsafePointer<CChar>?,
        _ uploadDataSize: UnsafeMutablePointer<Int>,
        _ context: DaemonContext
    ) -> MHD_Result {
        if !pending.headersSeen {
            pending.headersSeen = true
            if let declared = declaredContentLength(connection) {
                if declared > discardLimit(context) {
                    // Early answer: libmicrohttpd then closes the connection instead of reading the body.
                    return queue(payloadTooLarge(context, pending, method), on: connection, context)
                }
                if declared > context.maximumBodySize {
                    // Read and drop the body, then answer 413 on a connection that stays usable: closing while the
                    // client still sends makes its TCP stack reset the connection, and the client never sees the 413.
                    pending.bodyTooLarge = true
                } else {
                    pending.body.reserveCapacity(declared)
                }
            }
            return .YES
        }
        let size = uploadDataSize.pointee
        if size > 0 {
            if pending.bodyTooLarge {
                pending.discarded += size
                if pending.discarded > discardLimit(context) {
                    uploadDataSize.pointee = 0
                    return queue(payloadTooLarge(context, pending, method), on: connection, context)
                }
            } else if pending.body.count + size > context.maximumBodySize {
                pending.bodyTooLarge = true
                pending.discarded = pending.body.count + size
                pending.body = []
            } else if let uploadData {
                pending.body.append(contentsOf: UnsafeRawBufferPointer(start: uploadData, count: size))
            }
            uploadDataSize.pointee = 0
            return .YES
        }
        if let delayed = pending.delayedResponse {
            pending.delayedResponse = nil
            return queue(delayed, on: connection, context)
        }
        if pending.bodyTooLarge {
            return queue(payloadTooLarge(context, pending, method), on: connection, context)
        }
        var response = respond(to: pending, connection, method, context)
        if let delay = response.delay, delay > .zero {
            response.delay = nil
            pending.delayedResponse = response
            if suspend(connection, for: delay, context) { return .YES }
            // Stopping: no connection may be suspended now, so the response goes out without its delay.
            pending.delayedResponse = nil
        }
        return queue(response, on: connection, context)
    }

    /// Suspends the connection and resumes it after `delay` from a timer, so no worker thread waits. False when the
    /// listener is stopping (`resumeAll` ran): libmicrohttpd aborts the process when it stops with a suspended connection.
    private static func suspend(_ connection: OpaquePointer, for delay: Duration, _ context: DaemonContext) -> Bool {
        let id = context.nextSuspension.wrappingAdd(1, ordering: .relaxed).newValue
        // Under the lock, so the timer cannot resume a connection that is not suspended yet, and `resumeAll` cannot
        // run between the check and the suspension.
        let suspended = context.suspended.withLock { table in
            guard !context.suspensionsClosed.load(ordering: .relaxed) else { return false }
            table[id] = SuspendedConnection(connection: connection)
            MHD_suspend_connection(connection)
            return true
        }
        guard suspended else { return false }
        let (seconds, attoseconds) = delay.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
            resume(id, context)
        }
        return true
    }

    /// Resumes one suspended connection, unless stopping already resumed it.
    static func resume(_ id: Int, _ context: DaemonContext) {
        context.suspended.withLock { table in
            guard let suspended = table.removeValue(forKey: id) else { return }
            MHD_resume_connection(suspended.connection)
        }
    }

    /// Resumes every suspended connection at once (before the daemon stops: libmicrohttpd must not stop with any).
    static func resumeAll(_ context: DaemonContext) {
        context.suspended.withLock { table in
            // A request that reaches its delay from now on is answered at once (`suspend`).
            context.suspensionsClosed.store(true, ordering: .relaxed)
            for suspended in table.values { MHD_resume_connection(suspended.connection) }
            table.removeAll()
        }
    }

    private static func respond(
        to pending: PendingRequest, _ connection: OpaquePointer, _ method: UnsafePointer<CChar>, _ context: DaemonContext
    ) -> HTTPResponse {
        guard let raw = pending.target else {
            reject(pending, method, status: 400, "the request target is not valid UTF-8", context)
            return .text("Bad Request: the request target is not valid UTF-8\n", status: .badRequest)
        }
        let target: RequestTarget
        do {
            target = try RequestTarget(raw: raw)
        } catch {
            reject(pending, method, status: 400, "the request target is malformed: \(error.message)", context)
            return .text(error.message, status: .badRequest)
        }
        let body = pending.body
        pending.body = []
        var request = HTTPRequest(
            method: String(cString: method),
            path: target.path,
            query: target.query,
            headers: pending.headers ?? headers(of: connection),
            body: body,
            remoteAddress: remoteAddress(of: connection),
            isSecure: context.isSecure,
            localPort: context.localPort.load(ordering: .relaxed)
        )
        request.rawTarget = raw
        return context.responder(request)
    }

    /// How much of an oversized body is read and dropped before the connection is given up instead.
    private static func discardLimit(_ context: DaemonContext) -> Int { context.maximumBodySize * 16 }

    private static func payloadTooLarge(_ context: DaemonContext, _ pending: PendingRequest, _ method: UnsafePointer<CChar>) -> HTTPResponse {
        reject(pending, method, status: 413, "the request body is larger than \(context.maximumBodySize) bytes", context)
        return .text("Content Too Large: the request body exceeds \(context.maximumBodySize) bytes\n", status: .payloadTooLarge)
    }

    /// Tells the server's observer of a request refused here; the path never carries the query.
    private static func reject(_ pending: PendingRequest, _ method: UnsafePointer<CChar>, status: Int, _ reason: String,
                               _ context: DaemonContext) {
        guard let rejections = context.rejections else { return }
        let target = pending.target ?? "?"
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? target
        rejections(HTTPRejection(method: String(cString: method), path: path, status: status, reason: reason))
    }

    /// The Content-Length header's value; nil when absent or not a number (libmicrohttpd rejects those itself).
    private static func declaredContentLength(_ connection: OpaquePointer) -> Int? {
        guard var digit = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length") else { return nil }
        var value = 0
        var sawDigit = false
        while digit.pointee != 0 {
            let byte = UInt8(bitPattern: digit.pointee)
            guard byte &- UInt8(ascii: "0") < 10 else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(byte &- UInt8(ascii: "0")))
            value = overflow1 || overflow2 ? Int.max : sum
            sawDigit = true
            digit += 1
        }
        return sawDigit ? value : nil
    }

    private static func headers(of connection: OpaquePointer) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers.reserveCapacity(Int(MHD_get_connection_values(connection, .HEADER_KIND, nil, nil)))
        withUnsafeMutablePointer(to: &headers) { pointer in
            _ = MHD_get_connection_values_n(connection, .HEADER_KIND, collectHeader, pointer)
        }
        return headers
    }

    private static let collectHeader: MHD_KeyValueIteratorN = { cls, _, key, keySize, value, valueSize in
        guard let cls, let key else { return .YES }
        let headers = cls.assumingMemoryBound(to: HTTPHeaders.self)
        let name = string(key, keySize)
        headers.pointee.add(name, value.map { string($0, valueSize) } ?? "")
        return .YES
    }

    private static func string(_ pointer: UnsafePointer<CChar>, _ count: Int) -> String {
        pointer.withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }
    }

    private static func remoteAddress(of connection: OpaquePointer) -> String {
        guard let address = CMicroHTTPD_client_address(connection) else { return "" }
        if Int32(address.pointee.sa_family) == AF_INET {
            let ipv4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) }
            return IPAddressText.dotted(ipv4)
        }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN)) { buffer in
            let text: UnsafePointer<CChar>?
            switch Int32(address.pointee.sa_family) {
            case AF_INET6:
                text = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                    var bytes = ipv6.pointee.sin6_addr
                    return inet_ntop(AF_INET6, &bytes, buffer.baseAddress, socklen_t(buffer.count))
                }
            default:
                text = nil
            }
            return text.map { String(cString: $0) } ?? ""
        }
    }

    // MARK: - Response

    private static func queue(_ response: HTTPResponse, on connection: OpaquePointer, _ context: DaemonContext) -> MHD_Result {
        var response = response
        if !(200...999).contains(response.status.rawValue) {
            context.logger.error("the responder answered with status \(response.status.rawValue), which cannot be sent; sending 500 instead")
            response = .text("Internal Server Error\n", status: .internalServerError)
        }
        // libmicrohttpd writes the status line and header fields into the connection's memory pool, beside the
        // request's; header fields that do not fit there make it close the connection with no answer at all. A head
        // within `maximumHeaderSize` leaves `HTTPServer.Configuration.responseHeadReserve` for them (less 2 KiB for
        // bytes of a next request a client already sent), which the server's own answers stay within; only a
        // responder's larger ones come here.
        let responseHeaderBytes = response.headers.reduce(256) { $0 + $1.0.utf8.count + $1.1.utf8.count + 4 }
        if responseHeaderBytes > context.connectionMemoryLimit - RequestHead.footprint(connection) - 2048 {
            context.logger.error("the response's header fields (\(responseHeaderBytes) bytes) do not fit in the connection's memory; sending 500 instead")
            response = .text("Internal Server Error: the response's header fields are too large\n", status: .internalServerError)
        }
        let made: OpaquePointer? = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let made else {
            context.logger.error("libmicrohttpd could not allocate a response of \(response.body.count) bytes")
            return .NO
        }
        defer { MHD_destroy_response(made) }
        for (name, value) in response.headers {
            // libmicrohttpd frames the body itself and refuses these.
            if ASCII.caseInsensitiveEquals(name, "Content-Length") || ASCII.caseInsensitiveEquals(name, "Transfer-Encoding") {
                continue
            }
            // `withCString` lends a native string's own bytes; passing a `String` where C wants a pointer copies it
            // into a new array every time (two allocations a field).
            let added = name.withCString { name in value.withCString { MHD_add_response_header(made, name, $0) } }
            if added == .NO {
                context.logger.warning("dropped response header \(name): libmicrohttpd refused it (line breaks or invalid characters?)")
            }
        }
        if context.isDraining.load(ordering: .relaxed) {
            _ = MHD_add_response_header(made, "Connection", "close")
        }
        return MHD_queue_response(connection, UInt32(response.status.rawValue), made)
    }
}
