import AsyncHTTPClient
import MockIDP
import MockIDPHTTP
import NIOCore
import NIOHTTP1
import NIOSSL

/// How `MockIDPClient` sends its requests (and through it the token helpers and the control API): to the server's
/// routes in-process, or over a socket with async-http-client. The one place either is done.
enum HTTPTransport: Sendable {
    case inProcess(MockIdentityProviderServer)
    case live(HTTPClient)

    /// The live transport for a server whose CA is at `caCertificatePath` (nil: the system's CAs, for an `https://`
    /// server started elsewhere; a plain-HTTP server needs none) and which closes
    /// connections idle for `serverIdleTimeout` seconds (`--connection-timeout`).
    ///
    /// The client gives up idle connections at half that, so it does not send a request on a connection the server
    /// is closing at that moment: a test that pauses (a breakpoint, a loaded machine) between two calls would get
    /// `remoteConnectionClosed` for a request the server never saw.
    static func live(trusting caCertificatePath: String?, serverIdleTimeout: Int) throws -> HTTPTransport {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = HTTPClient.Configuration.Timeout(connect: .seconds(10), read: .seconds(30))
        configuration.connectionPool = HTTPClient.Configuration.ConnectionPool(
            idleTimeout: .milliseconds(Int64(max(1, serverIdleTimeout)) * 500))
        // A test looks at a redirect itself (its Location carries the code or the error), as the in-process mode
        // returns it.
        configuration.redirectConfiguration = .disallow
        if let caCertificatePath {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(caCertificatePath))
            configuration.tlsConfiguration = tls
        }
        return .live(HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration))
    }

    /// Releases what the transport holds (the live client's connections).
    func shutdown() async {
        if case .live(let client) = self { try? await client.shutdown() }
    }

    /// Sends one request to the absolute `url` and returns the answer, whatever its status.
    func send(_ method: String, _ url: String, headers: [String: String] = [:], body: [UInt8]? = nil) async throws -> MockIDPResponse {
        switch self {
        case .inProcess(let server): try await Self.sendInProcess(server, method, url, headers: headers, body: body)
        case .live(let client): try await Self.sendLive(client, method, url, headers: headers, body: body)
        }
    }

    /// The request as the listener would hand it to the routes: `Host` from the URL unless `headers` has one (as
    /// async-http-client does), from loopback, secure for an `https:` URL; a delay the routes ask for (a fault's
    /// `delayMs`) is waited out, as the listener waits it out before it answers.
    private static func sendInProcess(_ server: MockIdentityProviderServer, _ method: String, _ url: String,
                                      headers: [String: String], body: [UInt8]?) async throws -> MockIDPResponse {
        var fields = HTTPHeaders()
        if let authority = Self.authority(of: url), !headers.keys.contains(where: { $0.lowercased() == "host" }) {
            fields.add("Host", authority)
        }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { fields.add(name, value) }
        if let body { fields.add("Content-Length", String(body.count)) }
        let request = try HTTPRequest(method: method, target: url, headers: fields, body: body ?? [],
                                      isSecure: url.lowercased().hasPrefix("https:"))
        let response = server.respond(to: request)
        if let delay = response.delay, delay > .zero { try await Task.sleep(for: delay) }
        return MockIDPResponse(status: response.status.rawValue, headers: response.headers.map { (name: $0.name, value: $0.value) },
                               body: response.body)
    }

    /// Whether `error` is what async-http-client reports for a request sent on a connection the server closed.
    private static func isClosedIdleConnection(_ error: any Error) -> Bool {
        if let error = error as? HTTPClientError, error == .remoteConnectionClosed { return true }
        if let error = error as? ChannelError, case .ioOnClosedChannel = error { return true }
        return false
    }

    /// `host[:port]` of an absolute URL.
    private static func authority(of url: String) -> String? {
        guard let scheme = url.range(of: "://") else { return nil }
        let rest = url[scheme.upperBound...]
        return String(rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" })
    }

    private static func sendLive(_ client: HTTPClient, _ method: String, _ url: String, headers: [String: String],
                                 body: [UInt8]?) async throws -> MockIDPResponse {
        var request = HTTPClientRequest(url: url)
        request.method = HTTPMethod(rawValue: method)
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, timeout: .seconds(30))
        } catch let error where Self.isClosedIdleConnection(error) {
            // Sent on a kept-alive connection just as the server closed it for idleness: the server closes only
            // connections with no request in progress, so it never saw this one, and sending it again is safe
            // (as Go's and urllib3's clients do). Once: a server that keeps closing is an error to report.
            response = try await client.execute(request, timeout: .seconds(30))
        }
        let bytes = try await response.body.collect(upTo: 16 * 1024 * 1024)
        return MockIDPResponse(status: Int(response.status.code), headers: response.headers.map { (name: $0.name, value: $0.value) },
                               body: Array(bytes.readableBytesView))
    }
}
