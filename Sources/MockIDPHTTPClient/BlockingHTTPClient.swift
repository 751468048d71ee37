/// A small blocking HTTP/1.1 client over plain TCP or TLS (OpenSSL's libssl): one request per connection
/// (`Connection: close`), the whole exchange bounded by a deadline and the answer by a size. `mockidp probe` sends
/// the API under test its tokens with it; the server fetches trusted issuers' key sets (`jwksUri`) with it.
///
/// HTTPS verifies the server against the system's trust store and `SSL_CERT_FILE` when set (or only `caFile`
/// when given), unless `insecure`.
package struct BlockingHTTPClient: Sendable {
    /// Where a request goes: `http://host[:port]/path?query` or `https://…`.
    package struct Target: Sendable, Equatable {
        package var secure: Bool
        package var host: String
        package var port: UInt16
        /// The path and query, as sent in the request line.
        package var target: String
        /// `Host:` as sent.
        package var authority: String

        /// The parts of `url`; nil when it is not an http or https URL with a host.
        package init?(_ url: String) {
            let lower = url.lowercased()
            if lower.hasPrefix("https://") { secure = true } else if lower.hasPrefix("http://") { secure = false } else { return nil }
            let rest = url.dropFirst(secure ? 8 : 7)
            let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
            authority = String(rest[..<slash])
            // A fragment stays with the client (RFC 9110 §4.2.4): it is not sent.
            let path = rest[slash...].prefix { $0 != "#" }
            target = path.isEmpty ? "/" : (path.first == "?" ? "/" + path : String(path))
            guard !target.contains(where: { $0 == " " || $0 == "\r" || $0 == "\n" }) else { return nil }
            var hostPart = Substring(authority)
            var portText: Substring?
            if hostPart.hasPrefix("[") {
                guard let close = hostPart.firstIndex(of: "]") else { return nil }
                let after = hostPart[hostPart.index(after: close)...]
                if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty { return nil }
                hostPart = hostPart[hostPart.index(after: hostPart.startIndex)..<close]
            } else if let colon = hostPart.lastIndex(of: ":") {
                portText = hostPart[hostPart.index(after: colon)...]
                hostPart = hostPart[..<colon]
            }
            guard !hostPart.isEmpty, !hostPart.contains(where: { $0 == "@" || $0 == " " || $0 == "\r" || $0 == "\n" }) else { return nil }
            host = String(hostPart)
            if let portText {
                guard let p = UInt16(portText), p > 0 else { return nil }
                port = p
            } else {
                port = secure ? 443 : 80
            }
        }

        /// Whether the host is a loopback name or address (`localhost`, `127.x.x.x`, `::1`).
        package var isLoopback: Bool {
            let name = host.lowercased()
            return name == "localhost" || name == "::1" || name.hasPrefix("127.") && name.allSatisfy { $0.isNumber || $0 == "." }
        }
    }

    /// Why an exchange failed, in one clause.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package var description: String
        /// The server's TLS certificate is not trusted (a caller may suggest a CA file).
        package var isUntrustedCertificate = false
        package init(_ description: String, isUntrustedCertificate: Bool = false) {
            self.description = description
            self.isUntrustedCertificate = isUntrustedCertificate
        }
    }

    /// The answer: status, headers as received, and the body (empty when not read).
    package struct Response: Sendable {
        package var status: Int
        package var headers: [(name: String, value: String)]
        package var body: [UInt8]

        /// The first header named `name` (without regard to case).
        package func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    /// The whole exchange (connect, TLS, request, answer) ends after this many seconds.
    package var timeoutSeconds: Double = 10
    /// A PEM file of CAs to trust for HTTPS instead of the system's store.
    package var caFile: String?
    /// Skip certificate verification (HTTPS).
    package var insecure = false
    /// Answers larger than this (headers and body) are refused.
    package var maximumResponseBytes = 1 << 20

    /// A client with the given bounds and trust.
    package init(timeoutSeconds: Double = 10, caFile: String? = nil, insecure: Bool = false, maximumResponseBytes: Int = 1 << 20) {
        self.timeoutSeconds = timeoutSeconds
        self.caFile = caFile
        self.insecure = insecure
        self.maximumResponseBytes = maximumResponseBytes
    }

    /// Sends `method` to `target` with `headers` and an empty body. With `readBody` false only the status line
    /// is read (a probe asks only whether the API accepted the token).
    package func send(_ method: String, _ target: Target, headers: [(String, String)] = [], readBody: Bool = true) throws(Failure) -> Response {
        try ClientConnection.withoutSIGPIPE { () throws(Failure) -> Response in
            try exchange(method, target, headers: headers, readBody: readBody)
        }
    }

    private func exchange(_ method: String, _ target: Target, headers: [(String, String)], readBody: Bool) throws(Failure) -> Response {
        var request = "\(method) \(target.target) HTTP/1.1\r\nHost: \(target.authority)\r\n"
        request += "User-Agent: mockidp\r\nAccept: */*\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        if !["GET", "HEAD", "DELETE", "OPTIONS"].contains(method) { request += "Content-Length: 0\r\n" }
        request += "\r\n"
        let connection = try ClientConnection.open(target, client: self)
        defer { connection.close() }
        try connection.write(Array(request.utf8))
        var received: [UInt8] = []
        var headEnd: Int?
        var expected: Int?
        while true {
            let chunk = try connection.read()
            if chunk.isEmpty { break }
            received += chunk
            guard received.count <= maximumResponseBytes + 65536 else {
                throw Failure("the answer is larger than \(maximumResponseBytes) bytes")
            }
            if !readBody, received.contains(0x0A) { break }
            if headEnd == nil, let end = Self.headEnd(received) {
                headEnd = end
                // A HEAD answer has no body, whatever its Content-Length says (RFC 9110 §9.3.2).
                expected = method == "HEAD" ? end : Self.head(received[..<end]).flatMap { Self.contentLength($0) }.map { end + $0 }
            }
            if let expected, received.count >= expected { break }
        }
        guard !received.isEmpty else { throw Failure("the server closed the connection without answering (or did not answer in time)") }
        guard readBody else {
            return Response(status: try Self.status(of: received), headers: [], body: [])
        }
        guard let end = headEnd ?? Self.headEnd(received), let head = Self.head(received[..<end]) else {
            throw Failure("the answer is not HTTP/1.x: \(String(decoding: received.prefix(80), as: UTF8.self))")
        }
        if method == "HEAD" { return Response(status: head.status, headers: head.headers, body: []) }
        var body = Array(received[end...])
        if head.header("transfer-encoding")?.lowercased().contains("chunked") == true {
            body = try Self.dechunked(body)
        } else if let length = Self.contentLength(head) {
            guard body.count >= length else { throw Failure("the connection closed before the whole answer arrived") }
            body = Array(body.prefix(length))
        }
        guard body.count <= maximumResponseBytes else { throw Failure("the answer is larger than \(maximumResponseBytes) bytes") }
        return Response(status: head.status, headers: head.headers, body: body)
    }

    /// "HTTP/1.1 200 OK" → 200.
    private static func status(of bytes: [UInt8]) throws(Failure) -> Int {
        let line = String(decoding: bytes.prefix { $0 != 0x0D && $0 != 0x0A }, as: UTF8.self)
        let parts = line.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let code = Int(parts[1]), (100...599).contains(code) else {
            throw Failure("the answer is not HTTP/1.x: \(line.prefix(80))")
        }
        return code
    }

    /// The offset just past the blank line that ends the head.
    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 3..<bytes.count where bytes[index] == 0x0A && bytes[index - 1] == 0x0D && bytes[index - 2] == 0x0A && bytes[index - 3] == 0x0D {
            return index + 1
        }
        return nil
    }

    private static func head(_ bytes: ArraySlice<UInt8>) -> Response? {
        let lines = bytes.split(separator: 0x0A).map { line in String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self) }
        guard let first = lines.first, let status = try? status(of: Array(first.utf8)) else { return nil }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            headers.append((String(line[..<colon]), Self.trimmed(line[line.index(after: colon)...])))
        }
        return Response(status: status, headers: headers, body: [])
    }

    private static func contentLength(_ head: Response) -> Int? {
        guard head.header("transfer-encoding") == nil else { return nil }
        return head.header("content-length").flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil }
    }

    /// `text` without spaces, tabs or carriage returns around it.
    private static func trimmed(_ text: Substring) -> String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        return String(text.drop(while: blank).reversed().drop(while: blank).reversed())
    }

    /// RFC 9112 §7.1: chunk sizes in hex, each chunk followed by CRLF, a zero-size chunk last (trailers ignored).
    private static func dechunked(_ bytes: [UInt8]) throws(Failure) -> [UInt8] {
        var body: [UInt8] = []
        var index = 0
        while true {
            guard let lineEnd = bytes[index...].firstIndex(of: 0x0A), lineEnd > index else {
                throw Failure("the chunked answer ends early")
            }
            let sizeText = String(decoding: bytes[index..<lineEnd], as: UTF8.self)
                .split(separator: ";", maxSplits: 1).first.map(Self.trimmed) ?? ""
            guard let size = Int(sizeText, radix: 16), size >= 0, size <= bytes.count else {
                throw Failure("the chunked answer has a bad chunk size '\(sizeText.prefix(16))'")
            }
            if size == 0 { return body }
            let start = lineEnd + 1
            guard start + size <= bytes.count else { throw Failure("the chunked answer ends early") }
            body += bytes[start..<(start + size)]
            index = start + size
            if index < bytes.count, bytes[index] == 0x0D { index += 1 }
            if index < bytes.count, bytes[index] == 0x0A { index += 1 }
        }
    }
}
