import MockIDPHTTP
import MockIDPHTTPClient
import Testing

/// The outgoing client (MockIDPHTTPClient) against this server: a plain GET, and HTTPS with the test CA. The client's
/// other tests, against a raw socket, are in MockIDPHTTPClientTests.
extension HTTPServerTests {
    private func fetch(_ url: String, client: BlockingHTTPClient = BlockingHTTPClient(timeoutSeconds: 5)) throws -> BlockingHTTPClient.Response {
        try client.send("GET", try #require(BlockingHTTPClient.Target(url)))
    }

    @Test("a GET to libmicrohttpd: status, headers and body")
    func plainGET() throws {
        let server = try HTTPServerTests.startServer()
        defer { server.stop() }
        let port = try #require(server.boundListeners.first).port
        let response = try fetch("http://127.0.0.1:\(port)/json")
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"status":"ok"}"#)
        #expect(response.header("content-type")?.hasPrefix("application/json") == true)
        #expect(try fetch("http://127.0.0.1:\(port)/missing").status == 404)
        let head = try BlockingHTTPClient(timeoutSeconds: 5).send("HEAD", try #require(BlockingHTTPClient.Target("http://127.0.0.1:\(port)/json#top")))
        #expect(head.status == 200 && head.body.isEmpty)
    }

    @Test("HTTPS verifies the server: trusted with its CA, refused by the system's store, accepted when insecure")
    func tls() throws {
        let pki = try HTTPServerTests.TestPKI(leafKey: "rsa:2048")
        defer { pki.remove() }
        let server = try HTTPServerTests.startServer(tls: pki.identity)
        defer { server.stop() }
        let port = try #require(server.boundListeners.first).port
        for host in ["127.0.0.1", "localhost"] {
            #expect(try fetch("https://\(host):\(port)/json", client: BlockingHTTPClient(timeoutSeconds: 5, caFile: pki.caFile)).status == 200)
        }
        #expect {
            _ = try fetch("https://127.0.0.1:\(port)/json")
        } throws: { ($0 as? BlockingHTTPClient.Failure)?.isUntrustedCertificate == true }
        #expect(try fetch("https://127.0.0.1:\(port)/json", client: BlockingHTTPClient(timeoutSeconds: 5, insecure: true)).status == 200)
    }
}
