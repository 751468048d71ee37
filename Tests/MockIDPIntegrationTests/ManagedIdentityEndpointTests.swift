import Foundation
import Logging
import MockIDP
import MockIDPConfiguration
import MockIDPJOSE
import MockIDPTesting
import Testing

/// The managed-identity endpoints over real sockets: a TLS listener with a plain-HTTP one beside it (`httpPorts`),
/// the identity header kept in the state directory, and the request log's reasons. (ManagedIdentityWrapperTests and
/// TamperFlowTests take these endpoints through both modes.)
@Suite struct ManagedIdentityEndpointTests {
    static let contoso = "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11"
    static let worker = "7d3c9a10-2b4e-4f61-8a7d-0c5e6f7a8b9c"

    @Test("a plain-HTTP listener serves IMDS beside the TLS one, with the state directory's identity header for App Service")
    func plainHTTPListener() async throws {
        // Two listeners of one server: over real sockets only, a server built with them.
        try await withStartedServer(ServerOptions(host: "127.0.0.1", ports: [0], tls: true, httpPorts: [0])) { server in
            let urls = server.baseURLs
            #expect(urls.count == 2 && urls[0].hasPrefix("https://127.0.0.1:") && urls[1].hasPrefix("http://127.0.0.1:"))
            try await withMockIDPClient(baseURL: urls[1]) { http in
                try await Self.servesIMDSAndAppService(server, over: http)
            }
        }
    }

    /// The checks of `plainHTTPListener`, through the client of its plain-HTTP listener.
    static func servesIMDSAndAppService(_ server: MockIdentityProviderServer, over http: MockIDPClient) async throws {
        let directory = server.stateDirectory.path
        var logger = Logger(label: "mockidp.managed-identity-tests")
        logger.logLevel = .warning

        // The secret is the state directory's, 0600, and the same for a second server on the directory.
        let saved = try String(contentsOfFile: directory + "/identity-header", encoding: .utf8)
        #expect(saved.trimmingCharacters(in: .whitespacesAndNewlines) == server.identityHeader)
        let mode = try FileManager.default.attributesOfItem(atPath: directory + "/identity-header")[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let again = try MockIdentityProviderServer(configuration: try ConfigurationLoader.load(paths: []),
                                                   options: ServerOptions(stateDirectory: directory), logger: logger)
        #expect(again.identityHeader == server.identityHeader)
        #expect(throws: MockIDPError.self) {
            try MockIdentityProviderServer(configuration: try ConfigurationLoader.load(paths: []),
                                           options: ServerOptions(stateDirectory: directory, identityHeader: " "), logger: logger)
        }

        let added = try await http.postJSON("/_mockidp/tenants/\(Self.contoso)/managedIdentities", text: #"{"clientId": "\#(Self.worker)"}"#)
        #expect(added.status == 201)
        let inspection = try await http.get("/_mockidp/inspection").json
        let listed = inspection["tenants"]?.arrayValue?.first?["managedIdentities"]?.arrayValue ?? []
        #expect(listed.map { $0["clientId"] } == [.string(Self.worker)], "the inspector lists the identity added")
        let imds = "/metadata/identity/oauth2/token?api-version=2018-02-01&resource=https%3A%2F%2Fvault.azure.net&client_id=" + Self.worker
        let refused = try await http.get(imds)
        #expect(refused.status == 400 && refused.json["error_description"] == "Required metadata header not specified")
        let answered = try await http.get(imds, headers: ["Metadata": "true"])
        #expect(answered.status == 200 && answered.json["client_id"]?.stringValue == Self.worker)
        #expect(answered.header("Server")?.hasPrefix("IMDS/") == true)
        let claims = try CompactJWS(try #require(answered.json["access_token"]?.stringValue)).payload
        #expect(claims["aud"] == "https://vault.azure.net" && claims["appid"] == .string(Self.worker))

        let appService = "/msi/token?api-version=2019-08-01&resource=https%3A%2F%2Fvault.azure.net&client_id=" + Self.worker
        #expect(try await http.get(appService, headers: ["X-IDENTITY-HEADER": "wrong"]).status == 401)
        #expect(try await http.get(appService, headers: ["X-IDENTITY-HEADER": server.identityHeader]).status == 200)
        let log = try await http.get("/_mockidp/requests")
        let reasons = (log.json["requests"]?.arrayValue ?? []).compactMap { $0["reason"]?.stringValue }
        #expect(reasons.contains { $0.contains("Metadata") } && reasons.contains { $0.contains("X-IDENTITY-HEADER") })
        #expect(try await http.execute("PUT", "/msi/token").status == 405)
    }
}
