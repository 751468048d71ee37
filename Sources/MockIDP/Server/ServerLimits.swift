/// The bounds the server keeps on connections and requests (`mockidp serve`'s limit flags), per listener.
public struct ServerLimits: Sendable, Equatable {
    /// The most connections a listener keeps open at once (`--max-connections`, default 16,384). The server raises
    /// its open-file limit to the hard limit at start to hold them.
    public var connections: Int
    /// The most connections one client address keeps open on a listener (`--max-connections-per-ip`); 0 (the
    /// default) sets none, as every client of a laptop's server comes from loopback.
    public var connectionsPerAddress: Int
    /// Seconds a connection may stay idle, or between two parts of a request, before it is closed
    /// (`--connection-timeout`, default 30).
    public var connectionTimeout: Int
    /// The largest request body in bytes (`--max-body-size`, default 1 MiB); larger ones get 413.
    public var bodySize: Int
    /// The memory a request's line and header fields may take in bytes (`--max-header-size`, default 64 KiB; a Cookie
    /// field counts twice); larger heads get 431. Each connection keeps 24 KiB more for the response's head.
    public var headerSize: Int

    /// The defaults of `mockidp serve`.
    public init(connections: Int = 16_384, connectionsPerAddress: Int = 0, connectionTimeout: Int = 30,
                bodySize: Int = 1_048_576, headerSize: Int = 64 * 1024) {
        self.connections = connections
        self.connectionsPerAddress = connectionsPerAddress
        self.connectionTimeout = connectionTimeout
        self.bodySize = bodySize
        self.headerSize = headerSize
    }

    /// What is wrong with these limits, in one sentence naming the flag; nil when they can be used.
    public var problem: String? {
        if connections < 1 { return "--max-connections must be at least 1, got \(connections)" }
        if connectionsPerAddress < 0 { return "--max-connections-per-ip must be 0 (no limit) or more, got \(connectionsPerAddress)" }
        if connectionTimeout < 1 { return "--connection-timeout must be at least 1 second, got \(connectionTimeout)" }
        if bodySize < 0 { return "--max-body-size must not be negative, got \(bodySize)" }
        if headerSize < 8192 { return "--max-header-size must be at least 8192 bytes, got \(headerSize)" }
        return nil
    }
}
