import AsyncHTTPClient
import MockIDP
import MockIDPHTTP
import MockIDPJOSE
import NIOCore
import NIOHTTP1
import NIOSSL

/// An HTTP answer as the helpers see it.
struct HTTPReply: Sendable {
    /// The status code.
    var status: Int
    /// Header fields, names lower-cased.
    var headers: [String: String]
    /// The body bytes.
    var body: [UInt8]
    /// The body as JSON (nil when it is not JSON).
    var json: JSONValue? { try? JSONValue.parse(body) }
    /// The body as text, for error messages.
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// How a test reaches the provider: through its routes in-process, or over its real listener.
public enum MockIdentityProviderMode: Sendable {
    /// Requests go straight to the server's routes: no socket, no client library, nothing listening. Clients
    /// outside the test process cannot reach the provider in this mode.
    case inProcess
    /// The server listens on a real port and the helpers talk to it through a real HTTP client
    /// (async-http-client), over TLS trusting exactly the server's own CA when `tls` is on.
    case live
}

/// How the helpers send their requests (token helpers, the control API).
enum HTTPTransport: Sendable {
    case inProcess(MockIdentityProviderServer)
    case live(HTTPClient)

    /// The live transport for a server whose CA is at `caCertificatePath` (nil: plain HTTP) and which closes
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

    /// Sends one request and returns the answer, whatever its status.
    func send(_ method: String, _ url: String, headers: [String: String] = [:], body: [UInt8]? = nil) async throws -> HTTPReply {
        switch self {
        case .inProcess(let server): try Self.sendInProcess(server, method, url, headers: headers, body: body)
        case .live(let client): try await Self.sendLive(client, method, url, headers: headers, body: body)
        }
    }

    private static func sendInProcess(_ server: MockIdentityProviderServer, _ method: String, _ url: String,
                                      headers: [String: String], body: [UInt8]?) throws -> HTTPReply {
        var fields = HTTPHeaders()
        if let authority = Self.authority(of: url) { fields.add("Host", authority) }
        for (name, value) in headers { fields.add(name, value) }
        if let body { fields.add("Content-Length", String(body.count)) }
        let request = try HTTPRequest(method: method, target: url, headers: fields, body: body ?? [],
                                      isSecure: url.hasPrefix("https:"))
        let response = server.respond(to: request)
        var replyHeaders: [String: String] = [:]
        for (name, value) in response.headers { replyHeaders[name.lowercased()] = value }
        return HTTPReply(status: response.status.rawValue, headers: replyHeaders, body: response.body)
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
                                 body: [UInt8]?) async throws -> HTTPReply {
        var request = HTTPClientRequest(url: url)
        request.method = HTTPMethod(rawValue: method)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
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
        var fields: [String: String] = [:]
        for (name, value) in response.headers { fields[name.lowercased()] = value }
        return HTTPReply(status: Int(response.status.code), headers: fields, body: Array(bytes.readableBytesView))
    }
}
