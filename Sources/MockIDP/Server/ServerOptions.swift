/// How the server listens and where it keeps its state: the `mockidp serve` flags.
public struct ServerOptions: Sendable {
    /// The address to listen on (`--host`).
    public var host: String
    /// Ports to listen on (`--port`, repeatable); 0 picks a free port.
    public var ports: [UInt16]
    /// HTTPS with the state directory's certificate (false: `--no-tls`).
    public var tls: Bool
    /// `--state-dir`.
    public var stateDirectory: String
    /// `--public-url`: fixes scheme, host and port in issuers and endpoint URLs.
    public var publicURL: String?
    /// `--admin-token`: required of every control-API caller when set.
    public var adminToken: String?
    /// `--no-admin` turns the control API off.
    public var adminEnabled: Bool
    /// Worker threads per listener; nil uses every core.
    public var threadsPerListener: Int?
    /// Plain-HTTP listeners beside the TLS ones (`--http-port`, repeatable; 0 picks a free port), as the instance
    /// metadata service and some container set-ups need.
    public var httpPorts: [UInt16]
    /// The App Service identity header secret (`--identity-header`); nil: the state directory's, made on first start.
    public var identityHeader: String?
    /// Bounds on connections and requests (`--max-connections` and the other limit flags).
    public var limits = ServerLimits()

    /// Options; the defaults are `mockidp serve`'s.
    public init(host: String = "127.0.0.1", ports: [UInt16] = [8443], tls: Bool = true, stateDirectory: String = ".mockidp",
                publicURL: String? = nil, adminToken: String? = nil, adminEnabled: Bool = true, threadsPerListener: Int? = nil,
                httpPorts: [UInt16] = [], identityHeader: String? = nil) {
        self.host = host
        self.ports = ports
        self.tls = tls
        self.stateDirectory = stateDirectory
        self.publicURL = publicURL
        self.adminToken = adminToken
        self.adminEnabled = adminEnabled
        self.threadsPerListener = threadsPerListener
        self.httpPorts = httpPorts
        self.identityHeader = identityHeader
    }
}
