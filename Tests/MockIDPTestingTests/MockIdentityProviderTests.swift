import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockIDPConfiguration
import MockIDPCore
import MockIDPJOSE
import MockIDPTesting
import Testing

/// `withMockIdentityProvider` and the value it hands a test: configuration sources, TLS, URLs, token helpers.
@Suite struct MockIdentityProviderTests {
    static let contoso = "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11"
    static let daemon = "9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d"
    static let mobile = "3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c"

    static let oneTenant = """
        tenants:
          - id: 0d9c8b7a-6f5e-4d3c-8b2a-1f0e9d8c7b6a
            domains: [tiny.example]
            apps:
              - clientId: 1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d
                secret: tiny-secret
                apiPermissions: {https://graph.microsoft.com: [User.Read.All]}
        """

    func status(_ url: String) async -> Int? {
        var request = URLRequest(url: URL(string: url)!)
        request.timeoutInterval = 5
        guard let (_, response) = try? await URLSession.shared.data(for: request) else { return nil }
        return (response as? HTTPURLResponse)?.statusCode
    }

    @Test("with no configuration the embedded default is served on a loopback port over plain HTTP")
    func embeddedDefault() async throws {
        try await withMockIdentityProvider { idp in
            #expect(idp.baseURL.hasPrefix("http://127.0.0.1:"))
            #expect(idp.port > 0 && !idp.usesTLS && idp.caCertificatePath == nil && idp.caCertificatePEM == nil)
            #expect(await status(idp.discoveryURL(tenant: "fabrikam.onmicrosoft.com")) == 200)
            let tokens = try await idp.clientCredentialsToken(tenant: Self.contoso, clientID: Self.daemon, secret: "daemon-secret",
                                                              scope: "api://contoso-api/.default")
            #expect(tokens.claims["roles"] == ["Reader", "Writer"])
            #expect(tokens.claims["tid"] == .string(Self.contoso))
            #expect(tokens.response["token_type"] == "Bearer")
        }
    }

    @Test("configuration from YAML, JSON, files and a value each replace the default")
    func configurationSources() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mockidp-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("tiny.yaml").path
        try Self.oneTenant.write(toFile: file, atomically: true, encoding: .utf8)
        let json = """
            {"tenants": [{"id": "0d9c8b7a-6f5e-4d3c-8b2a-1f0e9d8c7b6a", "domains": ["tiny.example"],
              "apps": [{"clientId": "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d", "secret": "tiny-secret"}]}]}
            """
        let value = try ConfigurationLoader.parse(text: Self.oneTenant, fileName: "tiny", baseDirectory: ".")
        for source in [ConfigurationSource.yaml(Self.oneTenant), .json(json), .files([file]), .value(value)] {
            try await withMockIdentityProvider(configuration: source) { idp in
                #expect(await status(idp.discoveryURL(tenant: "tiny.example")) == 200, "\(source)")
                #expect(await status(idp.discoveryURL(tenant: "contoso.onmicrosoft.com")) == 400, "\(source)")
                let tokens = try await idp.clientCredentialsToken(tenant: "tiny.example", clientID: "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
                                                                  secret: "tiny-secret", scope: "https://graph.microsoft.com/.default")
                #expect(tokens.claims["tid"] == "0d9c8b7a-6f5e-4d3c-8b2a-1f0e9d8c7b6a", "\(source)")
            }
        }
    }

    @Test("a configuration with a typo fails before any server starts, naming the line")
    func badConfiguration() async throws {
        var ran = false
        let error = await #expect(throws: ConfigurationError.self) {
            try await withMockIdentityProvider(configuration: .yaml("tenants:\n  - id: 0d9c8b7a-6f5e-4d3c-8b2a-1f0e9d8c7b6a\n    domian: [x.example]\n")) { _ in
                ran = true
            }
        }
        #expect(!ran)
        #expect(error?.description.contains(":3:") == true)
        #expect(error?.description.contains("domian") == true)
    }

    @Test("the server stops and its temporary state directory goes when the body returns or throws")
    func alwaysStops() async throws {
        struct Boom: Error {}
        var base: String?
        await #expect(throws: Boom.self) {
            try await withMockIdentityProvider { idp in
                base = idp.baseURL
                #expect(await status(idp.baseURL + "/_mockidp/health") == 200)
                throw Boom()
            }
        }
        #expect(await status(try #require(base) + "/_mockidp/health") == nil)
        let ca = try await withMockIdentityProvider(tls: true) { idp in
            #expect(FileManager.default.fileExists(atPath: idp.caCertificatePath ?? "(none)"))
            return idp.caCertificatePath ?? "(none)"
        }
        #expect(ca != "(none)" && !FileManager.default.fileExists(atPath: ca))
    }

    @Test("with TLS the helpers verify the server against its fresh CA")
    func tls() async throws {
        try await withMockIdentityProvider(tls: true) { idp in
            #expect(idp.baseURL.hasPrefix("https://127.0.0.1:"))
            let pem = try #require(idp.caCertificatePEM)
            #expect(pem.hasPrefix("-----BEGIN CERTIFICATE-----"))
            // URLSession does not know this CA: the handshake fails, so nothing is trusted by accident.
            #expect(await status(idp.baseURL + "/_mockidp/health") == nil)
            let tokens = try await idp.passwordToken(tenant: "contoso.com", clientID: Self.mobile, username: "alice@contoso.onmicrosoft.com",
                                                     password: "alice-password", scopes: ["openid", "offline_access", "User.Read"])
            #expect(tokens.idTokenClaims?["iss"] == .string("\(idp.baseURL)/\(Self.contoso)/v2.0"))
            #expect(tokens.claims["aud"] == "00000003-0000-0000-c000-000000000000")   // Graph, asked for by short scope name
            let refresh = try #require(tokens.refreshToken)
            let again = try await idp.refreshedToken(tenant: "contoso.com", clientID: Self.mobile, refreshToken: refresh, scopes: ["User.Read"])
            #expect(again.claims["oid"] == tokens.claims["oid"])
        }
    }

    @Test("a fixed state directory keeps its keys across two providers")
    func stateDirectory() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mockidp-state-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = try await withMockIdentityProvider(stateDirectory: folder) { idp in try await idp.keySet(tenant: "common").keys.map(\.keyID) }
        let second = try await withMockIdentityProvider(stateDirectory: folder) { idp in try await idp.keySet(tenant: "common").keys.map(\.keyID) }
        #expect(!first.isEmpty && first == second)
        #expect(FileManager.default.fileExists(atPath: folder + "/signing-key.pem"))
    }

    @Test("authorities and endpoints are spelled as MSAL and Entra spell them")
    func urls() async throws {
        try await withMockIdentityProvider { idp in
            let b = idp.baseURL
            #expect(idp.authority(tenant: "contoso.com") == "\(b)/contoso.com")
            #expect(idp.b2cAuthority(tenant: "contosob2c.onmicrosoft.com", policy: "B2C_1_signupsignin")
                == "\(b)/tfp/contosob2c.onmicrosoft.com/B2C_1_signupsignin")
            #expect(idp.authority(tenant: "contoso.com", cloud: .usgov) == "https://login.microsoftonline.us/contoso.com")
            #expect(idp.authority(tenant: "x", cloud: .china) == "https://login.partner.microsoftonline.cn/x")
            #expect(idp.tokenEndpoint(tenant: "common") == "\(b)/common/oauth2/v2.0/token")
            #expect(idp.v1TokenEndpoint(tenant: "common") == "\(b)/common/oauth2/token")
            #expect(idp.authorizeEndpoint(tenant: "common") == "\(b)/common/oauth2/v2.0/authorize")
            // The discovery document names the same endpoints the helpers build.
            let doc = try await idp.token(tenant: Self.contoso, parameters: [("grant_type", "client_credentials"), ("client_id", Self.daemon),
                                                                            ("client_secret", "daemon-secret"), ("scope", "api://contoso-api/.default")])
            #expect(doc.claims["iss"] == .string("\(b)/\(Self.contoso)/v2.0"))
            let (data, _) = try await URLSession.shared.data(from: URL(string: idp.discoveryURL(tenant: Self.contoso))!)
            let discovery = try JSONValue.parse(Array(data))
            #expect(discovery["token_endpoint"] == .string(idp.tokenEndpoint(tenant: Self.contoso)))
            #expect(discovery["jwks_uri"] == .string(idp.keySetURL(tenant: Self.contoso)))
        }
    }

    @Test("a client that uses a sovereign cloud's real host name reaches the provider with TLS verified")
    func cloudHost() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let sovereign = root.appendingPathComponent("config/examples/sovereign.yaml").path
        try await withMockIdentityProvider(configuration: .files([sovereign]), tls: true) { idp in
            let authority = idp.authority(tenant: "contosogov.onmicrosoft.us", cloud: .usgov)
            #expect(authority == "https://login.microsoftonline.us/contosogov.onmicrosoft.us")
            // As a client would with an /etc/hosts line; on port 443 the URL carries no port at all.
            let host = "login.microsoftonline.us"
            let url = authority.replacingOccurrences(of: host, with: "\(host):\(idp.port)") + "/v2.0/.well-known/openid-configuration"
            let curl = Process()
            curl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            curl.arguments = ["curl", "-fsS", "--cacert", try #require(idp.caCertificatePath), "--resolve", "\(host):\(idp.port):127.0.0.1", url]
            let out = Pipe()
            curl.standardOutput = out
            try curl.run()
            let body = out.fileHandleForReading.readDataToEndOfFile()
            curl.waitUntilExit()
            #expect(curl.terminationStatus == 0)
            let document = try JSONValue.parse(Array(body))
            // Entra: a cloud's issuer names its login host, whatever port the request came in on.
            #expect(document["issuer"] == .string(idp.authority(tenant: "4712c55e-5996-4a23-b912-9014db0ff64d", cloud: .usgov) + "/v2.0"))
            #expect(document["cloud_instance_name"] == "microsoftonline.us")
        }
    }

    @Test("the B2C authority in tfp form serves its policy's discovery document")
    func b2cAuthority() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        try await withMockIdentityProvider(configuration: .files([root.appendingPathComponent("config/examples/b2c.yaml").path])) { idp in
            let authority = idp.b2cAuthority(tenant: "fabrikamb2c.onmicrosoft.com", policy: "B2C_1_signupsignin")
            let (data, response) = try await URLSession.shared.data(from: URL(string: authority + "/v2.0/.well-known/openid-configuration")!)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            let document = try JSONValue.parse(Array(data))
            #expect(document["issuer"]?.stringValue?.hasSuffix("/a4cf0827-8d79-45b2-ab17-599d4e41cad3/v2.0/") == true)
            #expect(document["token_endpoint"]?.stringValue?.hasPrefix(idp.baseURL + "/") == true)
        }
    }

    @Test("a token signed by a key the server does not publish is refused by verifiedClaims")
    func verification() async throws {
        let other = try await withMockIdentityProvider { idp in
            try await idp.clientCredentialsToken(tenant: Self.contoso, clientID: Self.daemon, secret: "daemon-secret",
                                                 scope: "api://contoso-api/.default").accessToken
        }
        try await withMockIdentityProvider { idp in
            await #expect(throws: (any Error).self) { try await idp.verifiedClaims(of: other, tenant: Self.contoso) }
            let mine = try await idp.clientCredentialsToken(tenant: Self.contoso, clientID: Self.daemon, secret: "daemon-secret",
                                                            scope: "api://contoso-api/.default").accessToken
            let claims = try await idp.verifiedClaims(of: mine, tenant: Self.contoso)
            #expect(claims["appid"] == .string(Self.daemon) || claims["azp"] == .string(Self.daemon))
            var tampered = Array(mine)
            tampered[mine.count - 5] = tampered[mine.count - 5] == "A" ? "B" : "A"
            await #expect(throws: (any Error).self) { try await idp.verifiedClaims(of: String(tampered), tenant: Self.contoso) }
        }
    }
}
