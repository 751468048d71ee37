import ArgumentParser
import MockIDP

/// `mockidp serve`'s bounds on connections and requests (docs/limits-and-security.md).
struct LimitOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Connections a listener keeps open at once (default 16384).", valueName: "n"))
    var maxConnections: Int = ServerLimits().connections

    @Option(name: .customLong("max-connections-per-ip"),
            help: ArgumentHelp("Connections one client address keeps open on a listener (default 0: no limit).", valueName: "n"))
    var maxConnectionsPerIP: Int = ServerLimits().connectionsPerAddress

    @Option(name: .long, help: ArgumentHelp("Seconds a connection may stay idle or stall mid-request (default 30).", valueName: "s"))
    var connectionTimeout: Int = ServerLimits().connectionTimeout

    @Option(name: .long, help: ArgumentHelp("Largest request body in bytes; larger ones get 413 (default 1048576).", valueName: "bytes"))
    var maxBodySize: Int = ServerLimits().bodySize

    @Option(name: .long, help: ArgumentHelp("Memory for a request's line and headers in bytes; more gets 431 (default 65536).", valueName: "bytes"))
    var maxHeaderSize: Int = ServerLimits().headerSize

    var limits: ServerLimits {
        ServerLimits(connections: maxConnections, connectionsPerAddress: maxConnectionsPerIP, connectionTimeout: connectionTimeout,
                     bodySize: maxBodySize, headerSize: maxHeaderSize)
    }

    func validate() throws {
        if let problem = limits.problem { throw ValidationError(problem) }
    }
}
