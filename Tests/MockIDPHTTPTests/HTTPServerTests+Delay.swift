import Foundation
import Logging
import MockIDPHTTP
import Synchronization
import Testing

/// Responses with a `delay`: sent later from a suspended connection, never by a waiting worker thread.
extension HTTPServerTests {
    /// A server whose `/slow` answers after `delay` and `/fast` at once.
    static func startDelaying(threads: Int, delay: Duration = .milliseconds(1500),
                              rejections: (@Sendable (HTTPRejection) -> Void)? = nil) throws -> (HTTPServer, UInt16) {
        var router = Router()
        router.add("/slow") { _, _ in
            var r = HTTPResponse.text("late\n")
            r.delay = delay
            return r
        }
        router.add("/fast") { _, _ in .text("now\n") }
        var configuration = HTTPServer.Configuration(listeners: [HTTPServer.Listener(host: "127.0.0.1", port: 0)])
        configuration.threadsPerListener = threads
        configuration.maximumBodySize = 1024
        let routes = router
        let server = HTTPServer(configuration: configuration, logger: Logger(label: "test.delay"), rejections: rejections) { routes.respond(to: $0) }
        try server.start()
        return (server, try #require(server.boundListeners.first).port)
    }

    @Test("delayed responses on more connections than worker threads leave the others answered at once; keep-alive survives")
    func delayedResponses() throws {
        // A long delay, so the margins for a loaded CI machine can be wide.
        let (server, port) = try Self.startDelaying(threads: 1, delay: .seconds(3))
        defer { server.stop() }
        let start = Date()
        let slow = try (0..<4).map { _ in try RawHTTPClient(port: port, timeout: 10) }
        for client in slow { try client.send("GET /slow HTTP/1.1\r\nHost: localhost\r\n\r\n") }
        let fast = try RawHTTPClient(port: port)
        try fast.send("GET /fast HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(try fast.readResponse().text == "now\n")
        // A blocked worker would hold it for the whole delay (3 s).
        #expect(Date().timeIntervalSince(start) < 2.5)
        for client in slow {
            let response = try client.readResponse()
            #expect(response.status == 200 && response.text == "late\n")
        }
        let elapsed = Date().timeIntervalSince(start)
        // One after another on the one worker would take 12 s.
        #expect(elapsed >= 2.95 && elapsed < 8.0, "all four after one delay, not one after another: \(elapsed)")
        // The connection stays usable after a delayed response.
        try slow[0].send("GET /fast HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(try slow[0].readResponse().text == "now\n")
    }

    @Test("stopping with suspended connections neither crashes nor hangs")
    func stopWhileSuspended() throws {
        let (server, port) = try Self.startDelaying(threads: 2)
        let clients = try (0..<3).map { _ in try RawHTTPClient(port: port) }
        for client in clients { try client.send("GET /slow HTTP/1.1\r\nHost: localhost\r\n\r\n") }
        usleep(100_000)
        let start = Date()
        server.stop(gracePeriod: .milliseconds(50))
        #expect(Date().timeIntervalSince(start) < 2)
        // A second server still works afterwards: the process is healthy, and late timers found nothing to resume.
        usleep(1_600_000)
        let (again, port2) = try Self.startDelaying(threads: 1)
        defer { again.stop() }
        let c = try RawHTTPClient(port: port2)
        try c.send("GET /fast HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(try c.readResponse().status == 200)
    }

    @Test("requests the HTTP layer refuses itself are reported with a reason and without the query")
    func httpLayerRejections() throws {
        let seen = Mutex<[HTTPRejection]>([])
        let (server, port) = try Self.startDelaying(threads: 1) { r in seen.withLock { $0.append(r) } }
        defer { server.stop() }
        let client = try RawHTTPClient(port: port)
        try client.send("POST /fast?code=secret HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2000\r\n\r\n" + String(repeating: "a", count: 2000))
        #expect(try client.readResponse().status == 413)
        let rejections = seen.withLock { $0 }
        #expect(rejections.count == 1)
        #expect(rejections.first?.path == "/fast" && rejections.first?.status == 413 && rejections.first?.method == "POST")
        #expect(rejections.first?.reason.contains("1024 bytes") == true)
    }
}
