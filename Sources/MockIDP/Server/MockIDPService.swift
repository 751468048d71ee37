#if canImport(Glibc)
import Glibc
#endif
import Logging
import ServiceLifecycle

/// Runs a server until graceful shutdown (SIGINT or SIGTERM through ServiceLifecycle): starts it, prints
/// `mockidp listening on <base-url>` per listener on standard output, writes the ready file, then waits.
public struct MockIDPService: Service, CustomStringConvertible {
    let server: MockIdentityProviderServer
    let readyFile: String?
    let logger: Logger

    /// A service running `server`; `readyFile` receives its base URL once it listens.
    public init(server: MockIdentityProviderServer, readyFile: String?, logger: Logger) {
        self.server = server
        self.readyFile = readyFile
        self.logger = logger
    }

    /// The service's name in ServiceLifecycle's logs. ServiceLifecycle names each service with `"\(service)"`;
    /// without this, that interpolation would walk the whole server by reflection at every start, with a
    /// protocol-conformance lookup at every step.
    public var description: String { "MockIDPService" }

    /// Starts the server, waits for graceful shutdown, then stops it.
    public func run() async throws {
        try server.start()
        var out = ""
        for url in server.baseURLs { out += "mockidp listening on \(url)\n" }
        var bytes = Array(out.utf8)
        bytes.withUnsafeMutableBytes { _ = write(1, $0.baseAddress, $0.count) }
        if let readyFile, let first = server.baseURLs.first {
            try Self.writeReadyFile(readyFile, contents: first + "\n")
        }
        if let ca = server.caCertificatePath { logger.info("trust the CA at \(ca)") }
        // Returns when SIGINT or SIGTERM arrives (or the task is cancelled).
        try? await gracefulShutdown()
        logger.info("shutting down")
        server.stop()
    }
}

extension MockIDPService {
    /// Writes the ready file atomically, so a waiting script never reads half a URL.
    static func writeReadyFile(_ path: String, contents: String) throws(MockIDPError) {
        let fd = open(path + ".tmp", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw MockIDPError("cannot write the ready file \(path): \(String(cString: strerror(errno)))") }
        let bytes = Array(contents.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard rename(path + ".tmp", path) == 0 else { throw MockIDPError("cannot write the ready file \(path)") }
    }
}
