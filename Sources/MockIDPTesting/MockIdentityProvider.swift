import Foundation
import Logging
import MockIDP
import MockIDPConfiguration
import MockIDPCore

/// A running mock identity provider, as a test sees it: where it listens and how to name its authorities.
public struct MockIdentityProvider: Sendable {
    /// The server (its provider, options and state directory).
    public let server: MockIdentityProviderServer
    /// `scheme://127.0.0.1:port` of the first listener.
    public let baseURL: String

    /// The authority URL of a tenant (GUID, domain, `common`, `organizations`, `consumers`).
    public func authority(tenant: String) -> String { "\(baseURL)/\(tenant)" }

    /// The CA certificate file clients must trust (nil without TLS).
    public var caCertificatePath: String? { server.caCertificatePath }
}

/// Starts a mock identity provider on a free port in this process, runs `body`, and always stops it.
/// With no configuration the embedded default (Contoso and Fabrikam) is served. TLS is off unless asked for.
public func withMockIdentityProvider<Result>(
    configuration: IdentityProviderConfiguration? = nil, tls: Bool = false, stateDirectory: String? = nil,
    _ body: (MockIdentityProvider) async throws -> Result
) async throws -> Result {
    let config = try configuration ?? ConfigurationLoader.load(paths: [])
    let directory = stateDirectory ?? FileManager.default.temporaryDirectory
        .appendingPathComponent("mockidp-\(UUID().uuidString)").path
    defer { if stateDirectory == nil { try? FileManager.default.removeItem(atPath: directory) } }
    var logger = Logger(label: "mockidp.testing")
    logger.logLevel = .warning
    let server = try MockIdentityProviderServer(
        configuration: config, options: ServerOptions(host: "127.0.0.1", ports: [0], tls: tls, stateDirectory: directory),
        logger: logger)
    try server.start()
    defer { server.stop(gracePeriod: Duration.milliseconds(200)) }
    guard let base = server.baseURLs.first else { throw MockIDPError("the server reported no listener") }
    return try await body(MockIdentityProvider(server: server, baseURL: base))
}
