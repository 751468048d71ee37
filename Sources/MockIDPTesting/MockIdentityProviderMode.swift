/// How a test reaches the provider: through its routes in-process, or over its real listener. Both give the same
/// answers to the same requests; run a flow suite in both with Swift Testing's
/// `@Test(arguments: MockIdentityProviderMode.allCases)`.
public enum MockIdentityProviderMode: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Requests go straight to the server's routes: no socket, no client library, nothing listening. Clients
    /// outside the test process cannot reach the provider in this mode.
    case inProcess
    /// The server listens on a real port and the helpers talk to it through a real HTTP client
    /// (async-http-client), over TLS trusting exactly the server's own CA when `tls` is on.
    case live

    /// `inProcess` or `live`, as a parameterized test names its argument.
    public var description: String { rawValue }
}
