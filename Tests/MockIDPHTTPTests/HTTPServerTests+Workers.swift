import Foundation
import MockIDPHTTP
import Synchronization
import Testing

extension HTTPServerTests {
    @Test("connections are handed to the workers in turn: while one worker is busy, the next connection is answered by the other")
    func connectionsSpreadOverWorkers() throws {
        let release = Atomic<Bool>(false)
        var router = Router()
        router.add("/busy") { _, _ in
            // Holds its worker until the test has seen the other connection answered (at most 5 s).
            let start = ContinuousClock.now
            while !release.load(ordering: .acquiring), ContinuousClock.now - start < .seconds(5) { usleep(1_000) }
            return .text("done\n")
        }
        router.add("/quick") { _, _ in .text("quick\n") }
        let server = try Self.startServer(router: router) { $0.threadsPerListener = 2 }
        defer { server.stop() }
        let port = try #require(server.boundListeners.first).port

        let busy = try RawHTTPClient(port: port)
        try busy.send("GET /busy HTTP/1.1\r\nHost: localhost\r\n\r\n")
        usleep(100_000)  // the first worker is now inside /busy
        let quick = try RawHTTPClient(port: port)
        let start = ContinuousClock.now
        try quick.send("GET /quick HTTP/1.1\r\nHost: localhost\r\n\r\n")
        let answer = try quick.readResponse()
        let waited = ContinuousClock.now - start
        release.store(true, ordering: .releasing)
        #expect(answer.status == 200)
        // On the busy worker it would have waited for /busy's release (5 s).
        #expect(waited < .seconds(2), "the second connection waited \(waited)")
        #expect(try busy.readResponse().status == 200)
    }
}
