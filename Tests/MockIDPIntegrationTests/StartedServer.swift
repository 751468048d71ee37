import Foundation
import Logging
import MockIDP
import MockIDPConfiguration

/// Starts a server built from `options` on a new temporary state directory (`options.stateDirectory` is replaced),
/// serving the embedded default, runs `body` with it and always stops it and removes the directory.
///
/// For the few tests about the listeners themselves (worker threads, a plain-HTTP listener beside the TLS one), which
/// `withMockIdentityProvider` does not set up; every other suite starts its provider with `withMockIdentityProvider`.
/// Reach it with `withMockIDPClient(baseURL:)`.
func withStartedServer<Result>(_ options: ServerOptions,
                               _ body: (MockIdentityProviderServer) async throws -> Result) async throws -> Result {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mockidp-server-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var logger = Logger(label: "mockidp.integration-tests")
    logger.logLevel = .warning
    var options = options
    options.stateDirectory = directory
    let server = try MockIdentityProviderServer(configuration: try ConfigurationLoader.load(paths: []), options: options, logger: logger)
    try server.start()
    defer { server.stop(gracePeriod: .milliseconds(200)) }
    return try await body(server)
}
