import Foundation
import Logging
import MockIDP
import MockIDPConfiguration
import MockIDPCore

/// Starts a mock identity provider in this process on a free loopback port, runs `body` with it, and always
/// stops it (also when `body` throws), then removes its temporary state directory.
///
/// - Parameters:
///   - configuration: what it serves; the embedded default unless told (`.yaml(…)`, `.files([…])`, `.value(…)`).
///   - tls: HTTPS with a fresh local CA (`caCertificatePath`), or plain HTTP (the default: any client works
///     without trusting a CA, and URLSession on Linux cannot trust a private CA at all). The helpers trust exactly
///     that CA.
///   - mode: `.live` (the default) listens on a real port and the helpers use a real HTTP client;
///     `.inProcess` listens nowhere and the helpers call the server's routes directly.
///   - port: 0 picks a free port; a fixed port (443 for `authority(tenant:cloud:)`) fails if it is taken.
///   - stateDirectory: keep keys and CA in this folder (kept afterwards); nil uses a temporary one.
///   - adminToken: require `Authorization: Bearer` on the control API (the helpers send it).
///   - logLevel: what the server logs to standard error (default: warnings).
///   - limits: the server's bounds on connections and requests (`mockidp serve`'s limit flags), to test how a
///     client copes with them; the defaults are `serve`'s.
public func withMockIdentityProvider<Result>(
    configuration: ConfigurationSource = .embeddedDefault, tls: Bool = false, port: UInt16 = 0,
    stateDirectory: String? = nil, adminToken: String? = nil, logLevel: Logger.Level = .warning,
    limits: ServerLimits = ServerLimits(), mode: MockIdentityProviderMode = .live,
    _ body: (MockIdentityProvider) async throws -> Result
) async throws -> Result {
    let config = try configuration.load()
    let directory = stateDirectory ?? FileManager.default.temporaryDirectory
        .appendingPathComponent("mockidp-\(UUID().uuidString)").path
    defer { if stateDirectory == nil { try? FileManager.default.removeItem(atPath: directory) } }
    var logger = Logger(label: "mockidp.testing")
    logger.logLevel = logLevel
    var options = ServerOptions(host: "127.0.0.1", ports: [port], tls: tls, stateDirectory: directory, adminToken: adminToken)
    options.limits = limits
    let server = try MockIdentityProviderServer(configuration: config, options: options, logger: logger)
    switch mode {
    case .inProcess:
        let base = (tls ? "https://localhost" : "http://localhost") + (port == 0 ? "" : ":\(port)")
        return try await body(MockIdentityProvider(server: server, baseURL: base, mode: .inProcess, transport: .inProcess(server)))
    case .live:
        try server.start()
        defer { server.stop(gracePeriod: Duration.milliseconds(200)) }
        guard let base = server.baseURLs.first else { throw MockIDPError("the server reported no listener") }
        let transport = try HTTPTransport.live(trusting: server.caCertificatePath,
                                                serverIdleTimeout: limits.connectionTimeout)
        do {
            let result = try await body(MockIdentityProvider(server: server, baseURL: base, mode: .live, transport: transport))
            await transport.shutdown()
            return result
        } catch {
            await transport.shutdown()
            throw error
        }
    }
}

/// Like `withMockIdentityProvider(configuration:…)`, for a configuration built in code.
public func withMockIdentityProvider<Result>(
    configuration: IdentityProviderConfiguration, tls: Bool = false, port: UInt16 = 0, stateDirectory: String? = nil,
    adminToken: String? = nil, logLevel: Logger.Level = .warning, limits: ServerLimits = ServerLimits(),
    mode: MockIdentityProviderMode = .live, _ body: (MockIdentityProvider) async throws -> Result
) async throws -> Result {
    try await withMockIdentityProvider(configuration: .value(configuration), tls: tls, port: port,
                                       stateDirectory: stateDirectory, adminToken: adminToken, logLevel: logLevel,
                                       limits: limits, mode: mode, body)
}
