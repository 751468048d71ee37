import MockIDPHTTP
import MockIDPJOSE

/// The HTTP client of a mock identity provider, modelled on Hummingbird's test client: send any request to any
/// endpoint and get the answer back as a `MockIDPResponse`, whatever its status. It is the one client the helpers
/// use too, so a request behaves alike in both modes: in `.inProcess` it goes straight to the server's routes, in
/// `.live` over a real socket (async-http-client, trusting exactly the server's CA over TLS).
///
/// It sends what it is given and nothing more: no cookies are kept, redirects are returned (not followed), and the
/// admin token is not added (the control-API wrappers of `MockIdentityProvider` add it; here, send `Authorization`
/// yourself). `Host` is the URL's authority unless `headers` names one, which is how a test reaches a cloud's host
/// (`login.microsoftonline.us`) on a loopback server.
public struct MockIDPClient: Sendable {
    /// `scheme://host[:port]` that a path (`/…`) is joined to, without a trailing slash.
    public let baseURL: String
    let transport: HTTPTransport

    init(baseURL: String, transport: HTTPTransport) {
        self.baseURL = baseURL
        self.transport = transport
    }

    /// Sends one request and returns the answer, whatever its status.
    ///
    /// - Parameters:
    ///   - method: `GET`, `POST`, … (sent as given).
    ///   - pathOrURL: a path with its query (`/common/discovery/instance?api-version=1.1`), joined to `baseURL`, or
    ///     an absolute `http(s)://` URL (another listener of the same server; in `.inProcess` it still reaches the
    ///     routes, with that URL's host as `Host`).
    ///   - headers: request header fields; `Host` here replaces the URL's.
    ///   - body: the body bytes; `Content-Length` is set from them.
    public func execute(_ method: String, _ pathOrURL: String, headers: [String: String] = [:],
                        body: [UInt8]? = nil) async throws -> MockIDPResponse {
        try await transport.send(method, url(pathOrURL), headers: headers, body: body)
    }

    /// `GET pathOrURL`.
    public func get(_ pathOrURL: String, headers: [String: String] = [:]) async throws -> MockIDPResponse {
        try await execute("GET", pathOrURL, headers: headers)
    }

    /// `POST pathOrURL` with `fields` as an `application/x-www-form-urlencoded` body, in order (a name may repeat):
    /// what a token request is.
    public func postForm(_ pathOrURL: String, _ fields: [(String, String)],
                         headers: [String: String] = [:]) async throws -> MockIDPResponse {
        let body = URLEncodedForm.encode(fields.map { (name: $0.0, value: $0.1) })
        var headers = headers
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        return try await execute("POST", pathOrURL, headers: headers, body: Array(body.utf8))
    }

    /// `POST pathOrURL` with `json` as an `application/json` body: what a control-API call is.
    public func postJSON(_ pathOrURL: String, _ json: JSONValue, headers: [String: String] = [:]) async throws -> MockIDPResponse {
        try await postJSON(pathOrURL, text: json.jsonString, headers: headers)
    }

    /// `POST pathOrURL` with `text` as an `application/json` body, sent as it is: a test may send JSON that does not
    /// parse, on purpose.
    public func postJSON(_ pathOrURL: String, text: String, headers: [String: String] = [:]) async throws -> MockIDPResponse {
        var headers = headers
        headers["Content-Type"] = "application/json"
        return try await execute("POST", pathOrURL, headers: headers, body: Array(text.utf8))
    }

    /// `pathOrURL` joined to `baseURL` when it is a path.
    func url(_ pathOrURL: String) -> String {
        pathOrURL.hasPrefix("/") ? baseURL + pathOrURL : pathOrURL
    }
}

/// Runs `body` with a client for a mock identity provider this process did not start with `withMockIdentityProvider`
/// (`mockidp serve`, a container, a `MockIdentityProviderServer` started by hand), over real sockets, and releases
/// the client's connections afterwards (also when `body` throws).
///
/// - Parameters:
///   - baseURL: the server's `scheme://host:port` (what `mockidp serve` prints as `mockidp listening on …`).
///   - caCertificatePath: the CA an `https://` server's certificate must chain to (`<state-dir>/ca.pem`); nil
///     trusts the system's CAs.
///   - serverIdleTimeout: the server's `--connection-timeout` in seconds; the client gives up idle connections at
///     half that, so it never sends on a connection the server is closing.
public func withMockIDPClient<Result>(
    baseURL: String, caCertificatePath: String? = nil, serverIdleTimeout: Int = 30,
    _ body: (MockIDPClient) async throws -> Result
) async throws -> Result {
    let transport = try HTTPTransport.live(trusting: caCertificatePath, serverIdleTimeout: serverIdleTimeout)
    let base = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
    do {
        let result = try await body(MockIDPClient(baseURL: base, transport: transport))
        await transport.shutdown()
        return result
    } catch {
        await transport.shutdown()
        throw error
    }
}
