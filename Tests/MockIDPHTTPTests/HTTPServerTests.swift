import Foundation
import Logging
import Synchronization
import MockIDPHTTP
import Testing

/// The server over real sockets on 127.0.0.1 (and ::1), port 0.
@Suite struct HTTPServerTests {
    // MARK: - Fixture

    /// Routes the tests talk to: /echo reflects the request, /json is a small JSON GET, the others misbehave.
    static func routes() -> Router {
        var router = Router()
        router.add("/echo") { request, _ in
            var response = HTTPResponse(headers: ["Content-Type": "application/octet-stream"], body: request.body)
            response.headers["X-Method"] = request.method
            response.headers["X-Path"] = request.path
            response.headers["X-Query"] = request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "|")
            response.headers["X-Test-Header"] = request.headers["x-test-header"] ?? "-"
            response.headers["X-Remote"] = request.remoteAddress
            response.headers["X-Loopback"] = "\(request.isLoopback)"
            response.headers["X-Secure"] = "\(request.isSecure)"
            response.headers["X-Local-Port"] = "\(request.localPort)"
            return response
        }
        router.add("/json", methods: ["GET"]) { _, _ in .json(Array(#"{"status":"ok"}"#.utf8)) }
        router.add("/bad-status") { _, _ in HTTPResponse(status: HTTPStatus(rawValue: 99)) }
        router.add("/bad-header") { _, _ in
            HTTPResponse(headers: ["X-Bad": "a\r\nInjected: yes", "X-Good": "fine"], body: Array("body".utf8))
        }
        return router
    }

    static func startServer(
        listeners: [HTTPServer.Listener] = [HTTPServer.Listener(host: "127.0.0.1", port: 0)],
        tls: HTTPServer.TLSIdentity? = nil,
        router: Router = routes(),
        _ configure: (inout HTTPServer.Configuration) -> Void = { _ in }
    ) throws -> HTTPServer {
        var configuration = HTTPServer.Configuration(listeners: listeners, tls: tls)
        configure(&configuration)
        let server = HTTPServer(configuration: configuration, logger: Logger(label: "test.http")) { router.respond(to: $0) }
        try server.start()
        return server
    }

    private static func port(_ server: HTTPServer) throws -> UInt16 {
        try #require(server.boundListeners.first).port
    }

    private static func get(_ path: String, port: UInt16, extraHeaders: String = "") throws -> RawHTTPClient.Response {
        let client = try RawHTTPClient(port: port)
        try client.send("GET \(path) HTTP/1.1\r\nHost: localhost\r\n\(extraHeaders)\r\n")
        return try client.readResponse()
    }

    private static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// Compares large byte arrays without handing them to the test library, whose diff of a mismatch is quadratic.
    private static func expectSameBytes(_ actual: [UInt8], _ expected: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        let firstDifference = zip(actual, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        let same = actual.count == expected.count && firstDifference == nil
        #expect(same, "got \(actual.count) bytes for \(expected.count), first difference at \(firstDifference.map(String.init) ?? "-")",
                sourceLocation: sourceLocation)
    }

    // MARK: - Listening

    @Test("port 0 gives a real port and a base URL with it")
    func portZero() throws {
        let server = try Self.startServer()
        defer { server.stop() }
        let listener = try #require(server.boundListeners.first)
        #expect(listener.port != 0)
        #expect(listener.baseURL == "http://127.0.0.1:\(listener.port)")
        #expect(!listener.isSecure)
        let response = try Self.get("/json", port: listener.port)
        #expect(response.status == 200)
        #expect(response.text == #"{"status":"ok"}"#)
        #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
        #expect(response.headers["Content-Length"] == "15")
    }

    @Test("two listeners on two ports both answer, each with its own port")
    func twoListeners() throws {
        let any = HTTPServer.Listener(host: "127.0.0.1", port: 0)
        let server = try Self.startServer(listeners: [any, any])
        defer { server.stop() }
        let ports = server.boundListeners.map(\.port)
        #expect(ports.count == 2)
        #expect(Set(ports).count == 2)
        for port in ports {
            let response = try Self.get("/echo", port: port)
            #expect(response.status == 200)
            #expect(response.headers["X-Local-Port"] == "\(port)")
        }
    }

    @Test("an IPv6 ::1 listener answers and sees the peer as ::1")
    func ipv6() throws {
        let server = try Self.startServer(listeners: [HTTPServer.Listener(host: "::1", port: 0)])
        defer { server.stop() }
        let listener = try #require(server.boundListeners.first)
        #expect(listener.baseURL == "http://[::1]:\(listener.port)")
        let client = try RawHTTPClient(host: "::1", port: listener.port)
        try client.send("GET /echo HTTP/1.1\r\nHost: [::1]\r\n\r\n")
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(response.headers["X-Remote"] == "::1")
        #expect(response.headers["X-Loopback"] == "true")
    }

    @Test("a port in use is a clear error")
    func portInUse() throws {
        let first = try Self.startServer()
        defer { first.stop() }
        let port = try Self.port(first)
        let error = #expect(throws: HTTPServerError.self) {
            try Self.startServer(listeners: [HTTPServer.Listener(host: "127.0.0.1", port: port)])
        }
        #expect(error?.description == "cannot listen on 127.0.0.1:\(port): the address is already in use")
        #expect(error?.listener == HTTPServer.Listener(host: "127.0.0.1", port: port))
    }

    @Test("when one listener cannot bind, the ones already started are stopped")
    func allOrNothing() throws {
        let busy = try Self.startServer()
        defer { busy.stop() }
        let probe = try Self.startServer()
        let freePort = try Self.port(probe)
        probe.stop()
        #expect(throws: HTTPServerError.self) {
            try Self.startServer(listeners: [
                HTTPServer.Listener(host: "127.0.0.1", port: freePort),
                HTTPServer.Listener(host: "127.0.0.1", port: try Self.port(busy)),
            ])
        }
        #expect(RawHTTPClient.connectionError(port: freePort) == ECONNREFUSED)
    }

    @Test("a host that is not a numeric address is refused before binding")
    func badHost() {
        let error = #expect(throws: HTTPServerError.self) {
            try Self.startServer(listeners: [HTTPServer.Listener(host: "example.com", port: 0)])
        }
        #expect(error?.description == "cannot listen on example.com:0: the host must be a numeric IPv4 or IPv6 address or localhost")
    }

    @Test("starting twice is an error and stopping twice is harmless")
    func lifecycle() throws {
        let server = try Self.startServer()
        #expect(throws: HTTPServerError.self) { try server.start() }
        server.stop()
        server.stop()
        #expect(throws: HTTPServerError.self) { try server.start() }
    }

    // MARK: - Requests and responses

    @Test("keep-alive serves two requests on one socket without Connection: close")
    func keepAlive() throws {
        let server = try Self.startServer()
        defer { server.stop() }
        let client = try RawHTTPClient(port: try Self.port(server))
        for path in ["/json", "/echo"] {
            try client.send("GET \(path) HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(response.headers["Connection"].map { $0.lowercased() } != "close")
            #expect(response.headers["Content-Length"] != nil)
        }
    }

    @Test("HEAD is answered like GET with the length but no body")
    func head() throws {
        let server = try Self.startServer()
        defer { server.stop() }
        let client = try RawHTTPClient(port: try Self.port(server))
        try client.send("HEAD /json HTTP/1.1\r\nHost: localhost\r\n\r\n")
        let head = try client.readResponse(hasBody: false)
        #expect(head.status == 200)
        #expect(head.headers["Content-Length"] == "15")
        // Had a body been sent, it would now be read as the next response's status line.
        try client.send("GET /json HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(try client.readResponse().text == #"{"status":"ok"}"#)
    }

    @Test("the request carries method, headers by any case, peer and listener")
    func requestParts() throws {
        let server = try Self.startServer()
        defer { server.stop() }
        let port = try Self.port(server)
        let client = try RawHTTPClient(port: port)
        try client.send("PUT /echo HTTP/1.1\r\nHost: localhost\r\nx-TEST-header: Value 1\r\nContent-Length: 0\r\n\r\n")
        let response = try client.readResponse()
        #expect(response.headers["X-Method"] == "PUT")
        #expect(response.headers["X-Test-Header"] == "Value 1")
        #expect(response.headers["X-Remote"] == "127.0.0.1")
        #expect(response.headers["X-Loopback"] == "true")
        #expect(response.headers["X-Secure"] == "false")
        #expect(response.headers["X-Local-Port"] == "\(port)")
    }

    @Test("a body sent with Content-Length comes back byte for byte")
    func contentLengthBody() throws {
        let server = try Self.startServer()
        defer { server.stop() }
        let body = Self.randomBytes(500_000)
        let client = try RawHTTPClient(port: try Self.port(server))
        try client.send(Array("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body)
        let response = try client.readResponse()
        #expect(response.status == 200)
        Self.expectSameBytes(response.body, body)
    }

    @Test("a chunked body comes back byte for byte")
    func chunkedBody() throws {
        let server = try Self.startServer()
        defer { server.stop() }
        let body = Self.randomBytes(500_000)
        let client = try RawHTTPClient(port: try Self.port(server))
        var wire = Array("POST /echo HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        var offset = 0
        for size in [1, 4095, 70_000, 123_456].cycled(until: body.count) {
            let end = min(offset + size, body.count)
            wire += Array("\(String(end - offset, radix: 16))\r\n".utf8) + body[offset..<end] + [13, 10]
            offset = end
        }
        wire += Array("0\r\n\r\n".utf8)
        try client.send(wire)
        let response = try client.readResponse()
        #expect(response.status == 200)
        Self.expectSameBytes(response.body, body)
    }

    @Test("a 2 MiB body is read and dropped, then 413, and the connection stays usable")
    func bodyTooLargeDeclared() throws {
        let server = try Self.startServer()
        defer { server.stop() }
        let port = try Self.port(server)
        let client = try RawHTTPClient(port: port)
        let size = 2 * 1_048_576
        try client.send(Array("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(size)\r\n\r\n".utf8)
                        + [UInt8](repeating: 0x61, count: size))
        #expect(try client.readResponse().status == 413)
        try client.send("GET /json HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(try client.readResponse().status == 200)
    }

    @Test("a Content-Length far over the limit gets 413 before the body and the server still serves")
    func bodyFarTooLargeDeclared() throws {
        let server = try Self.startServer()
        defer { server.stop() }
        let port = try Self.port(server)
        let client = try RawHTTPClient(port: port)
        try client.send("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(17 * 1_048_576)\r\n\r\n")
        #expect(try client.readResponse().status == 413)
        #expect(try Self.get("/json", port: port).status == 200)
    }

    @Test("a chunked body over the limit gets 413 and the connection stays usable")
    func bodyTooLargeChunked() throws {
        let server = try Self.startServer { $0.maximumBodySize = 100_000 }
        defer { server.stop() }
        let client = try RawHTTPClient(port: try Self.port(server))
        let chunk = [UInt8](repeating: 0x61, count: 60_000)
        let chunkLine = Array("\(String(chunk.count, radix: 16))\r\n".utf8)
        var wire = Array("POST /echo HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        wire += chunkLine + chunk + [13, 10] + chunkLine + chunk + [13, 10] + Array("0\r\n\r\n".utf8)
        try client.send(wire)
        #expect(try client.readResponse().status == 413)
        try client.send("GET /json HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(try client.readResponse().status == 200)
    }

    @Test("a body at exactly the limit is accepted")
    func bodyAtLimit() throws {
        let server = try Self.startServer { $0.maximumBodySize = 1000 }
        defer { server.stop() }
        let client = try RawHTTPClient(port: try Self.port(server))
        let body = Self.randomBytes(1000)
        try client.send(Array("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000\r\n\r\n".utf8) + body)
        Self.expectSameBytes(try client.readResponse().body, body)
    }

    @Test("the query keeps order and duplicates, with + as space and %2B as plus; the path is decoded")
    func queryDecoding() throws {
        let server = try Self.startServer()
        defer { server.stop() }
        let response = try Self.get("/ech%6F?a=1+2&b=1%2B2&a=3&c&d=%C3%A9", port: try Self.port(server))
        #expect(response.status == 200)
        #expect(response.headers["X-Path"] == "/echo")
        #expect(response.headers["X-Query"] == "a=1 2|b=1+2|a=3|c=|d=é")
    }

    @Test("an absolute-form target is reduced to its path and query")
    func absoluteFormTarget() throws {
        let server = try Self.startServer()
        defer { server.stop() }
        let response = try Self.get("http://localhost/ech%6F?a=%2B", port: try Self.port(server))
        #expect(response.status == 200)
        #expect(response.headers["X-Path"] == "/echo")
        #expect(response.headers["X-Query"] == "a=+")
    }

    @Test("curl posting 2 MiB gets a clean 413")
    func curlBodyTooLarge() throws {
        let server = try Self.startServer()
        defer { server.stop() }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("mockidp-http-\(UUID().uuidString).bin")
        try Data(count: 2 * 1_048_576).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let url = try #require(server.boundListeners.first).baseURL + "/echo"
        let result = try Self.run("curl", ["-sS", "--max-time", "5", "-o", "/dev/null", "-w", "%{http_code}", "--data-binary", "@\(file.path)", url])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output == "413")
    }

    @Test("a target that does not decode gets 400 without reaching the responder", arguments: [
        "/echo?a=%zz", "/echo?a=%C3", "/echo?a=%00", "/ech%6", "/%FF",
    ])
    func badEncoding(target: String) throws {
        let server = try Self.startServer()
        defer { server.stop() }
        let response = try Self.get(target, port: try Self.port(server))
        #expect(response.status == 400)
        #expect(response.headers["X-Method"] == nil)
        #expect(response.text.hasPrefix("Bad Request: cannot decode the"))
    }

    @Test("raw bytes in the target that are not UTF-8 get 400")
    func rawInvalidUTF8() throws {
        let server = try Self.startServer()
        defer { server.stop() }
        let client = try RawHTTPClient(port: try Self.port(server))
        try client.send(Array("GET /echo?a=".utf8) + [0xC3, 0x28] + Array(" HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
        #expect(try client.readResponse().status == 400)
    }

    @Test("headers of 32 KB fit in the default connection memory (libmicrohttpd's own default would refuse them)")
    func largeHeaders() throws {
        let server = try Self.startServer()
        defer { server.stop() }
        let big = String(repeating: "x", count: 32_000)
        let response = try Self.get("/echo", port: try Self.port(server), extraHeaders: "Cookie: a=\(big)\r\nX-Test-Header: after\r\n")
        #expect(response.status == 200)
        #expect(response.headers["X-Test-Header"] == "after")
    }

    @Test("headers larger than the connection memory get 431 and the server still serves")
    func tooLargeHeaders() throws {
        let server = try Self.startServer()
        defer { server.stop() }
        let port = try Self.port(server)
        let big = String(repeating: "x", count: 80_000)
        #expect(try Self.get("/echo", port: port, extraHeaders: "Cookie: a=\(big)\r\n").status == 431)
        #expect(try Self.get("/json", port: port).status == 200)
    }

    @Test("a status code HTTP cannot carry becomes 500")
    func badStatus() throws {
        let server = try Self.startServer()
        defer { server.stop() }
        #expect(try Self.get("/bad-status", port: try Self.port(server)).status == 500)
    }

    @Test("a header value with a line break is dropped, never injected")
    func headerInjection() throws {
        let server = try Self.startServer()
        defer { server.stop() }
        let response = try Self.get("/bad-header", port: try Self.port(server))
        #expect(response.status == 200)
        #expect(response.headers["Injected"] == nil)
        #expect(response.headers["X-Bad"] == nil)
        #expect(response.headers["X-Good"] == "fine")
        #expect(response.text == "body")
    }

    // MARK: - Timeouts and stopping

    @Test("a connection that dribbles its headers is closed after the timeout")
    func slowHeaders() throws {
        let server = try Self.startServer { $0.connectionTimeout = 1 }
        defer { server.stop() }
        let client = try RawHTTPClient(port: try Self.port(server))
        try client.send("GET /json HTTP/1.1\r\nHost: local")
        let start = ContinuousClock.now
        #expect(client.waitForClose())
        let waited = ContinuousClock.now - start
        #expect(waited > .milliseconds(700))
        #expect(waited < .seconds(4))
    }

    @Test("graceful stop lets a request in flight finish while new connections are refused")
    func gracefulStop() throws {
        // Real threads and blocking waits: the ordering must not depend on how busy the test's task pool is.
        let entered = Flag(), stopped = Flag()
        var router = Router()
        router.add("/slow") { _, _ in
            entered.set()
            usleep(500_000)
            return .text("slow done")
        }
        let server = try Self.startServer(router: router)
        let port = try Self.port(server)
        let client = try RawHTTPClient(port: port)
        try client.send("GET /slow HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(entered.wait(upTo: .seconds(2)))
        let started = ContinuousClock.now
        Thread {
            server.stop(gracePeriod: .seconds(5))
            stopped.set()
        }.start()
        let refused = Flag()
        while ContinuousClock.now - started < .milliseconds(400), !refused.isSet {
            if RawHTTPClient.connectionError(port: port) == ECONNREFUSED { refused.set() } else { usleep(5_000) }
        }
        #expect(refused.isSet)
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(response.text == "slow done")
        #expect(response.headers["Connection"]?.lowercased() == "close")
        #expect(stopped.wait(upTo: .seconds(3)))
        #expect(ContinuousClock.now - started < .seconds(2))
    }

    @Test("an idle keep-alive connection does not hold up stop")
    func idleConnectionsDoNotDelayStop() throws {
        let server = try Self.startServer()
        let client = try RawHTTPClient(port: try Self.port(server))
        try client.send("GET /json HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(try client.readResponse().status == 200)
        let started = ContinuousClock.now
        server.stop(gracePeriod: .seconds(5))
        #expect(ContinuousClock.now - started < .seconds(1))
        #expect(client.waitForClose())
    }

    @Test("a request abandoned halfway does not hold up stop")
    func abandonedRequestDoesNotDelayStop() throws {
        let server = try Self.startServer()
        do {
            let client = try RawHTTPClient(port: try Self.port(server))
            try client.send("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000\r\n\r\nhalf")
            usleep(100_000)
        }
        usleep(100_000)
        let started = ContinuousClock.now
        server.stop(gracePeriod: .seconds(5))
        #expect(ContinuousClock.now - started < .seconds(1))
    }

    @Test("a request that outlives the grace period is cut off when stop returns")
    func gracePeriodEnds() throws {
        let server = try Self.startServer()
        let client = try RawHTTPClient(port: try Self.port(server))
        try client.send("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000\r\n\r\nhalf")
        usleep(100_000)
        let started = ContinuousClock.now
        server.stop(gracePeriod: .milliseconds(300))
        let took = ContinuousClock.now - started
        #expect(took >= .milliseconds(250))
        #expect(took < .seconds(2))
        #expect(client.waitForClose())
    }
}

/// A flag one thread sets and another waits for.
private final class Flag: Sendable {
    private let value = Atomic<Bool>(false)

    var isSet: Bool { value.load(ordering: .acquiring) }

    func set() { value.store(true, ordering: .releasing) }

    func wait(upTo limit: Duration) -> Bool {
        let start = ContinuousClock.now
        while !isSet, ContinuousClock.now - start < limit { usleep(1_000) }
        return isSet
    }
}

extension Array where Element == Int {
    /// The sizes repeated until they add up to at least `total`.
    fileprivate func cycled(until total: Int) -> [Int] {
        var sizes: [Int] = []
        var sum = 0
        while sum < total {
            let size = self[sizes.count % count]
            sizes.append(size)
            sum += size
        }
        return sizes
    }
}
