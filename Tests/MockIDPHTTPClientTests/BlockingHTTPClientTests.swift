import Foundation
import MockIDPHTTPClient
import Testing

/// The outbound client (`mockidp probe`, trusted issuers' `jwksUri`) against a raw socket that answers in odd ways:
/// chunked, oversized, silent, or a byte at a time. Against libmicrohttpd, over TLS with a test CA:
/// `HTTPServerTests+Client.swift` in MockIDPHTTPTests, beside the server's fixtures.
@Suite struct BlockingHTTPClientTests {
    /// A listener on 127.0.0.1 that accepts one connection, reads the request head, then does `behave` with the socket.
    final class CannedServer: @unchecked Sendable {
        let port: UInt16
        private let fd: Int32

        init(_ behave: @escaping @Sendable (Int32) -> Void) throws {
            let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) } }
            guard bound == 0, listen(listener, 4) == 0 else {
                close(listener)
                throw CocoaError(.fileWriteUnknown)
            }
            _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } }
            fd = listener
            port = UInt16(bigEndian: address.sin_port)
            Thread.detachNewThread {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }
                var buffer = [UInt8](repeating: 0, count: 4096)
                _ = buffer.withUnsafeMutableBytes { read(client, $0.baseAddress, $0.count) }
                behave(client)
                close(client)
            }
        }

        deinit { close(fd) }

        var url: String { "http://127.0.0.1:\(port)/jwks" }

        static func send(_ fd: Int32, _ text: String) {
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
    }

    private func get(_ url: String, client: BlockingHTTPClient = BlockingHTTPClient(timeoutSeconds: 5)) throws -> BlockingHTTPClient.Response {
        try client.send("GET", try #require(BlockingHTTPClient.Target(url)))
    }

    @Test("a chunked answer is put together")
    func chunked() throws {
        let server = try CannedServer { fd in
            CannedServer.send(fd, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nWiki\r\n5;ext=1\r\npedia\r\n0\r\n\r\n")
        }
        #expect(String(decoding: try get(server.url).body, as: UTF8.self) == "Wikipedia")
    }

    @Test("an answer larger than the bound is refused")
    func tooLarge() throws {
        let server = try CannedServer { fd in
            CannedServer.send(fd, "HTTP/1.1 200 OK\r\nContent-Length: 200000\r\n\r\n" + String(repeating: "x", count: 200_000))
        }
        #expect {
            _ = try get(server.url, client: BlockingHTTPClient(timeoutSeconds: 5, maximumResponseBytes: 1000))
        } throws: { ($0 as? BlockingHTTPClient.Failure)?.description.contains("larger than 1000 bytes") == true }
    }

    @Test("a server that never answers, or drips a byte at a time, is given up at the deadline", arguments: [false, true])
    func deadline(drip: Bool) throws {
        let server = try CannedServer { fd in
            for _ in 0..<40 {
                if drip { CannedServer.send(fd, "H") }
                usleep(100_000)
            }
        }
        let started = Date()
        #expect(throws: BlockingHTTPClient.Failure.self) {
            _ = try get(server.url, client: BlockingHTTPClient(timeoutSeconds: 0.5))
        }
        #expect(Date().timeIntervalSince(started) < 2)
    }

    @Test("targets: http and https URLs with a host; no other scheme, no spaces or line breaks")
    func targets() {
        let target = BlockingHTTPClient.Target("https://[::1]:8443/a/keys?x=1")
        #expect(target?.host == "::1" && target?.port == 8443 && target?.target == "/a/keys?x=1" && target?.isLoopback == true)
        #expect(BlockingHTTPClient.Target("http://example.com")?.port == 80)
        #expect(BlockingHTTPClient.Target("http://example.com/a?b#c")?.target == "/a?b")
        #expect(BlockingHTTPClient.Target("http://localhost:8080/")?.isLoopback == true)
        #expect(BlockingHTTPClient.Target("http://127.0.0.1.example.com/")?.isLoopback == false)
        for bad in ["ftp://example.com/", "https://", "https://example.com:99999/", "http://a b/", "http://example.com/a\r\nX: y",
                    "http://user@example.com/"] {
            #expect(BlockingHTTPClient.Target(bad) == nil, "\(bad)")
        }
    }
}
