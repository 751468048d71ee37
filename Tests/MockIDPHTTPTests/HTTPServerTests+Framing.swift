import MockIDPHTTP
import Testing

/// Requests a hostile client frames badly get an answer at once (RFC 9112), never silence until the timeout, and never
/// a different request's answer: on a plain-HTTP listener and on a TLS one alike.
extension HTTPServerTests {
    /// Sends `request` on a new connection to a fresh server and reads the answer within 5 seconds.
    private static func answer(_ request: [UInt8], router: Router = routes()) throws -> RawHTTPClient.Response {
        try answerClosing(request, router: router, secure: false).response
    }

    /// A TLS identity for the framing tests, made once (the PEM text is all they need).
    static let framingIdentity: HTTPServer.TLSIdentity? = {
        guard let pki = try? TestPKI(leafKey: "ec") else { return nil }
        defer { pki.remove() }
        return pki.identity
    }()

    /// Sends `request` on a new connection to a fresh server (over TLS when `secure`) and reads the answer within
    /// 5 seconds; then whether the server closed the connection within 5 more.
    private static func answerClosing(_ request: [UInt8], router: Router = routes(), secure: Bool) throws
        -> (response: RawHTTPClient.Response, closed: Bool) {
        var identity: HTTPServer.TLSIdentity?
        if secure {
            let made: HTTPServer.TLSIdentity = try #require(framingIdentity, "the test PKI could not be made")
            identity = made
        }
        let server = try startServer(tls: identity, router: router)
        defer { server.stop(gracePeriod: .milliseconds(100)) }
        let client = try RawHTTPClient(port: try #require(server.boundListeners.first).port, timeout: 5, secure: secure)
        try client.send(request)
        let response = try client.readResponse()
        return (response, client.waitForClose())
    }

    /// Malformed framing and header bytes, each with the status it must get at once: RFC 9112 §6.1, §6.3 and §5.1,
    /// RFC 9110 §5.5. None may wait for the client to give up.
    static let malformedHeads: [(name: String, head: [UInt8], status: Int)] = {
        let start = Array("POST /echo HTTP/1.1\r\nHost: localhost\r\n".utf8)
        let end = Array("\r\n\r\n".utf8)
        func head(_ fields: String) -> [UInt8] { start + Array(fields.utf8) + end }
        func raw(_ fields: [UInt8]) -> [UInt8] { start + fields + end }
        return [
            ("empty Transfer-Encoding", head("Transfer-Encoding: "), 400),
            ("Transfer-Encoding of blanks and commas", head("Transfer-Encoding:  , ,"), 400),
            ("NUL after chunked", raw(Array("Transfer-Encoding: chunked".utf8) + [0]), 400),
            ("NUL inside chunked", raw(Array("Transfer-Encoding: chun".utf8) + [0] + Array("ked".utf8)), 400),
            ("NUL before chunked", raw(Array("Transfer-Encoding:".utf8) + [0] + Array("chunked".utf8)), 400),
            ("NUL in the field name", raw(Array("Transfer".utf8) + [0] + Array("-Encoding: chunked".utf8)), 400),
            ("control character after chunked", raw(Array("Transfer-Encoding: chunked".utf8) + [1]), 400),
            ("DEL as the coding", raw(Array("Transfer-Encoding: ".utf8) + [0x7F]), 400),
            ("a bare CR inside the value", raw(Array("Transfer-Encoding: chunked".utf8) + [13] + Array("x".utf8)), 400),
            ("a space inside the coding", head("Transfer-Encoding: chun ked"), 400),
            ("chunked twice in one field", head("Transfer-Encoding: chunked, chunked"), 400),
            ("chunked in two fields", head("Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked"), 400),
            ("an unknown coding alone", head("Transfer-Encoding: gzip"), 400),
            ("a coding after chunked", head("Transfer-Encoding: chunked, gzip"), 400),
            ("chunked with a parameter", head("Transfer-Encoding: chunked;ext=1"), 400),
            ("Transfer-Encoding beside Content-Length", head("Transfer-Encoding: chunked\r\nContent-Length: 5"), 400),
            ("whitespace before the colon", head("Transfer-Encoding : chunked"), 400),
            ("a folded field", head("X-Test-Header: a\r\n b"), 400),
            ("NUL in another field", raw(Array("X-Test-Header: a".utf8) + [0] + Array("b".utf8)), 400),
            ("NUL after Content-Length", raw(Array("Content-Length: 0".utf8) + [0]), 400),
            ("empty Content-Length", head("Content-Length: "), 400),
            ("a control character in Content-Length", raw(Array("Content-Length: 3".utf8) + [1]), 400),
            ("an unknown coding before chunked", head("Transfer-Encoding: gzip, chunked"), 501),
            ("chunked written with blanks after it", head("Transfer-Encoding: chunked "), 501),
        ]
    }()

    @Test("a malformed framing or header line gets 400 (501 for a coding it cannot do) and a close at once, on both listeners",
          arguments: [false, true])
    func malformedHeadsAnsweredAtOnce(secure: Bool) throws {
        for (name, head, status) in Self.malformedHeads {
            let started = ContinuousClock.now
            let (response, closed) = try Self.answerClosing(head, secure: secure)
            #expect(response.status == status, "\(name): \(response.status) \(response.text)")
            #expect(response.headers["X-Path"] == nil, "\(name): the responder saw it")
            #expect(closed, "\(name): the connection stays open")
            #expect(ContinuousClock.now - started < .seconds(4), "\(name): answered only after \(ContinuousClock.now - started)")
        }
    }

    @Test("an HTTP/1.0 request with Transfer-Encoding is 400; chunked, written plainly and in any case, still works on both listeners",
          arguments: [false, true])
    func chunkedStillWorks(secure: Bool) throws {
        let old = try Self.answerClosing(Array("POST /echo HTTP/1.0\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n".utf8),
                                         secure: secure)
        #expect(old.response.status == 400 && old.closed)
        for coding in ["chunked", "Chunked", "CHUNKED"] {
            let request = "POST /echo HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: \(coding)\r\nConnection: close\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
            let r = try Self.answerClosing(Array(request.utf8), secure: secure).response
            #expect(r.status == 200 && r.text == "abc", "\(coding): \(r.status)")
        }
        // A clean request with many ordinary fields passes the head's checks.
        let fields = (0..<50).map { "X-Field-\($0): value \($0)\t with tabs and spaces" }.joined(separator: "\r\n")
        let plain = try Self.answerClosing(Array("GET /echo HTTP/1.1\r\nHost: localhost\r\n\(fields)\r\nX-Test-Header:after\r\nConnection: close\r\n\r\n".utf8),
                                           secure: secure).response
        #expect(plain.status == 200 && plain.headers["X-Test-Header"] == "after")
        // Bare LF line ends, which RFC 9112 §2.2 lets a server accept, still read.
        let bareLF = try Self.answerClosing(Array("GET /echo HTTP/1.1\nHost: localhost\nX-Test-Header: lf\nConnection: close\n\n".utf8),
                                            secure: secure).response
        #expect(bareLF.status == 200 && bareLF.headers["X-Test-Header"] == "lf")
    }

    @Test("a GET with 1,000 query parameters is answered, with every parameter decoded")
    func thousandQueryParameters() throws {
        let query = (0..<1000).map { "p\($0)=v\($0)" }.joined(separator: "&")
        let r = try Self.answer(Array("GET /echo?\(query) HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
        #expect(r.status == 200)
        let pairs = r.headers["X-Query"]?.split(separator: "|") ?? []
        #expect(pairs.count == 1000 && pairs.first == "p0=v0" && pairs.last == "p999=v999")
    }

    @Test("a last coding other than chunked gets 400 at once (RFC 9112 §6.3); another coding before chunked gets 501",
          arguments: [("gzip", 400), ("identity", 400), ("GZIP", 400), ("compress", 400), ("gzip, chunked", 501), ("identity, chunked", 501)])
    func unknownTransferCoding(coding: String, status: Int) throws {
        let r = try Self.answer(Array("POST /echo HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: \(coding)\r\n\r\nabc".utf8))
        #expect(r.status == status, "\(r.text)")
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

    @Test("a 40 KB redirect beside a 40 KB request is sent whole; a responder's head larger than the room left still gets an answer (500)")
    func responseHeadersTooLarge() throws {
        var router = Router()
        router.add("/echo-query") { request, _ in
            HTTPResponse.redirect(to: "https://app.example/cb?" + request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&"))
        }
        let state = String(repeating: "x", count: 40_000)
        let r = try Self.answer(Array("GET /echo-query?state=\(state) HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8), router: router)
        #expect(r.status == 302 && r.headers["Location"] == "https://app.example/cb?state=\(state)")
        let padding = String(repeating: "p", count: 22_000)
        let crowded = try Self.answer(Array("GET /echo-query?state=\(state) HTTP/1.1\r\nHost: localhost\r\nX-Padding: \(padding)\r\n\r\n".utf8),
                                      router: router)
        #expect(crowded.status == 500 && crowded.headers["Location"] == nil)
        let small = try Self.answer(Array("GET /echo-query?state=abc HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8), router: router)
        #expect(small.status == 302 && small.headers["Location"] == "https://app.example/cb?state=abc")
    }

    @Test("one 65,000-byte header field is served whole; one past the 64 KiB limit gets 431 and a close at once; on both listeners",
          arguments: [false, true])
    func oneLargeHeaderField(secure: Bool) throws {
        // Before, the first was accepted and then answered 500: it left the connection's memory no room for the answer.
        let within = try Self.answerClosing(
            Array("GET /echo HTTP/1.1\r\nHost: localhost\r\nX-Large: \(String(repeating: "x", count: 65_000))\r\nX-Test-Header: after\r\nConnection: close\r\n\r\n".utf8),
            secure: secure)
        #expect(within.response.status == 200 && within.response.headers["X-Test-Header"] == "after", "\(within.response.status)")
        let large = try Self.answerClosing(Array("GET /echo HTTP/1.1\r\nHost: localhost\r\nX-Large: \(String(repeating: "x", count: 66_000))\r\n\r\n".utf8),
                                           secure: secure)
        #expect(large.response.status == 431 && large.closed, "\(large.response.status) \(large.response.text)")
        #expect(large.response.headers["X-Path"] == nil)
        // A request line too long alone is a target too long: 414, whether it fits the connection's memory or not.
        for length in [70_000, 100_000] {
            let line = try Self.answerClosing(Array("GET /\(String(repeating: "t", count: length)) HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8),
                                              secure: secure)
            #expect(line.response.status == 414 && line.closed, "\(length): \(line.response.status)")
        }
    }

    @Test("beside the largest head taken, a response head filling the reserve (a 16 KiB redirect, cookies) is sent whole, on both listeners",
          arguments: [false, true])
    func responseRoomBesideTheLargestHead(secure: Bool) throws {
        let location = "https://app.example/cb?state=" + String(repeating: "s", count: 16_000)
        let cookie = "session=" + String(repeating: "c", count: 4_000) + "; Path=/; Secure; HttpOnly; SameSite=None"
        var router = Router()
        router.add("/answer") { _, _ in
            var response = HTTPResponse.redirect(to: location)
            response.headers.add("Set-Cookie", cookie)
            response.headers.add("Set-Cookie", "form=" + String(repeating: "f", count: 500))
            response.headers["Content-Security-Policy"] = "default-src 'none'; form-action https://app.example; " + String(repeating: "a", count: 800)
            return response
        }
        // The head's footprint lands just under the 64 KiB limit.
        let padding = String(repeating: "p", count: 65_536 - 2 * 64 - 80)
        let r = try Self.answerClosing(Array("GET /answer HTTP/1.1\r\nHost: localhost\r\nX-P: \(padding)\r\n\r\n".utf8),
                                       router: router, secure: secure)
        #expect(r.response.status == 302, "\(r.response.status) \(r.response.text)")
        #expect(r.response.headers["Location"] == location)
        #expect(r.response.headers.values("Set-Cookie").first == cookie)
    }
}
