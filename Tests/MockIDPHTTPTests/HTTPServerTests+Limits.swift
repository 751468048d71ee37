import Foundation
import MockIDPHTTP
import Testing

extension HTTPServerTests {
    @Test("per-address limit: an address at it has its next connection closed at once, other addresses are served, and a closed connection frees its place")
    func perAddressConnectionLimit() throws {
        var router = Router()
        router.add("/hello") { _, _ in .text("hello\n") }
        let server = try Self.startServer(router: router) {
            $0.threadsPerListener = 2
            $0.perAddressConnectionLimit = 2
        }
        defer { server.stop() }
        let port = try #require(server.boundListeners.first).port
        func served(_ client: RawHTTPClient) throws -> Bool {
            try client.send("GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n")
            return try client.readResponse().status == 200
        }

        var held = [try RawHTTPClient(port: port, source: "127.0.0.2"), try RawHTTPClient(port: port, source: "127.0.0.2")]
        for client in held { #expect(try served(client)) }
        let third = try RawHTTPClient(port: port, source: "127.0.0.2", timeout: 2)
        #expect(third.waitForClose(), "a third connection from an address at its limit of 2 stays open")
        #expect(try served(RawHTTPClient(port: port, source: "127.0.0.3")), "another address is refused")

        held.removeLast()  // closes it; the server counts it closed once its worker sees the end of the connection
        var admitted = false
        for _ in 0..<50 where !admitted {
            let next = try RawHTTPClient(port: port, source: "127.0.0.2", timeout: 2)
            admitted = (try? served(next)) ?? false
            if admitted { held.append(next) } else { usleep(20_000) }
        }
        #expect(admitted, "the place of the closed connection was never freed")
        #expect(try served(held[0]), "a connection within the limit is still served")
    }

    @Test("no per-address limit by default: many connections from one address are all served")
    func noPerAddressLimitByDefault() throws {
        var router = Router()
        router.add("/hello") { _, _ in .text("hello\n") }
        let server = try Self.startServer(router: router)
        defer { server.stop() }
        let port = try #require(server.boundListeners.first).port
        let clients = try (0..<40).map { _ in try RawHTTPClient(port: port, source: "127.0.0.2") }
        for client in clients {
            try client.send("GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(try client.readResponse().status == 200)
        }
    }
}
