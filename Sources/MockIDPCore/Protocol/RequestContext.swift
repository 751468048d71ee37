/// What the provider needs to know of the HTTP request it answers: the base URL the client used and its correlation ID.
public struct RequestContext: Sendable {
    /// `scheme://host[:port]` as the client sees this server (from `Host`, or `--public-url`).
    public var baseURL: String
    /// The host name without port, lower-case; decides the cloud.
    public var host: String
    /// The client's `client-request-id`, echoed as `correlation_id`.
    public var correlationID: String?
    /// The request's `claims` parameter (set by the token endpoint): decides `amr`/`acrs` and which challenges it answers.
    public var claims: ClaimsRequest?

    public init(baseURL: String, host: String, correlationID: String? = nil) {
        self.baseURL = baseURL
        self.host = host.lowercased()
        self.correlationID = correlationID
    }
}

/// Which protocol version an endpoint speaks.
public enum ProtocolVersion: String, Sendable {
    case v1
    case v2
}
