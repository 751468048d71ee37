import MockIDPHTTP
import Testing

/// Requests a hostile client frames badly get an answer at once (RFC 9112), never silence until the timeout, and never
/// a different request's answer.
extension HTTPServerTests {
    /// Sends `request` on a new connection to a fresh server and reads the answer within 5 seconds.
    private static func answer(_ request: [UInt8], router: Router = routes()) throws -> RawHTTPClient.Response {
        let server = try startServer(router: router)
        defer { server.stop(gracePeriod: .milliseconds(100)) }
        let client = try RawHTTPClient(port: try #require(server.boundListeners.first).port, timeout: 5)
        try client.send(request)
        return try client.readResponse()
    }

    @Test("a GET with 1,000 query parameters is answered, with every parameter decoded")
    func thousandQueryParameters() throws {
        let query = (0..<1000).map { "p\($0)=v\($0)" }.joined(separator: "&")
        let r = try Self.answer(Array("GET /echo?\(query) HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
        #expect(r.status == 200)
        let pairs = r.headers["X-Query"]?.split(separator: "|") ?? []
        #expect(pairs.count == 1000 && pairs.first == "p0=v0" && pairs.last == "p999=v999")
    }

    @Test("an unknown transfer coding gets 501 at once", arguments: ["gzip", "identity", "gzip, chunked", "GZIP", "compress"])
    func unknownTransferCoding(coding: String) throws {
        let r = try Self.answer(Array("POST /echo HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: \(coding)\r\n\r\nabc".utf8))
        #expect(r.status == 501, "\(r.text)")
        #expect(r.text.contains("transfer coding"))
    }

    @Test("chunked applied twice is 400; plain chunked still works")
    func chunkedTwice() throws {
        let twice = try Self.answer(Array("POST /echo HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n".utf8))
        #expect(twice.status == 400)
        let once = try Self.answer(Array("POST /echo HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: Chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n".utf8))
        #expect(once.status == 200 && once.text == "abc")
    }

    @Test("Content-Length fields that disagree are 400; ones that agree are read")
    func conflictingContentLengths() throws {
        let conflicting = try Self.answer(Array("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\nContent-Length: 5\r\n\r\nabcde".utf8))
        #expect(conflicting.status == 400 && conflicting.text.contains("Content-Length"), "\(conflicting.text)")
        let same = try Self.answer(Array("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc".utf8))
        #expect(same.status == 200 && same.text == "abc")
    }

    @Test("a NUL byte in the request target is 400, raw or as %00 in the path; the shorter path is never served")
    func nulInTarget() throws {
        let raw = try Self.answer(Array("GET /echo".utf8) + [0] + Array("/more HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
        #expect(raw.status == 400 && raw.headers["X-Path"] == nil, "\(raw.text)")
        let escaped = try Self.answer(Array("GET /echo%00/more HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
        #expect(escaped.status == 400 && escaped.headers["X-Path"] == nil)
        let rawInQuery = try Self.answer(Array("GET /echo?a=".utf8) + [0] + Array("b HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
        #expect(rawInQuery.status == 400 && rawInQuery.headers["X-Path"] == nil)
    }

    @Test("a response whose header fields do not fit beside a large request still gets an answer (500)")
    func responseHeadersTooLarge() throws {
        var router = Router()
        router.add("/echo-query") { request, _ in
            HTTPResponse.redirect(to: "https://app.example/cb?" + request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&"))
        }
        let state = String(repeating: "x", count: 40_000)
        let r = try Self.answer(Array("GET /echo-query?state=\(state) HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8), router: router)
        #expect(r.status == 500 && r.headers["Location"] == nil)
        let small = try Self.answer(Array("GET /echo-query?state=abc HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8), router: router)
        #expect(small.status == 302 && small.headers["Location"] == "https://app.example/cb?state=abc")
    }
}
