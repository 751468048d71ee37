import Foundation
import MockIDPConfiguration
import MockIDPCore
import Testing

/// `federatedCredentials` and `trustedIssuers`: reading, every problem with its line, merging and printing.
@Suite struct FederationConfigurationTests {
    /// A folder with a good JWKS file, a JWKS without RSA keys and a file that is not JSON.
    static let folder: String = {
        let folder = NSTemporaryDirectory() + "mockidp-federation-\(getpid())"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let examples = ConfigurationFixtures.configDirectory + "/examples/workload-identity-jwks.json"
        try? FileManager.default.removeItem(atPath: folder + "/keys.json")
        try? FileManager.default.copyItem(atPath: examples, toPath: folder + "/keys.json")
        try? #"{"keys": [{"kty": "EC", "crv": "P-256", "x": "AA", "y": "AA", "kid": "ec"}]}"#.write(toFile: folder + "/ec.json", atomically: true, encoding: .utf8)
        try? "keys".write(toFile: folder + "/text.json", atomically: true, encoding: .utf8)
        return folder
    }()

    private func problems(_ text: String) -> [String] { ConfigurationFixtures.problems(text, baseDirectory: Self.folder) }

    static let good = """
    tenants:
      - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
        apps:
          - clientId: 8c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f
            federatedCredentials:
              - issuer: https://oidc.cluster.example/
                subject: system:serviceaccount:default:worker
                audiences: [api://AzureADTokenExchange]
              - issuer: https://localhost:8443/6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11/v2.0
                subject: 11111111-2222-4333-8444-555555555555
                audiences: [7c2d9e4f-1b3a-4c5d-8e6f-a0b1c2d3e4f5]
    trustedIssuers:
      - issuer: https://oidc.cluster.example/
        jwks: keys.json
      - issuer: http://127.0.0.1:9999/issuer
        jwksUri: http://127.0.0.1:9999/jwks
    """

    @Test("an app with federated credentials and no secret is confidential; keys load from the file next to the configuration")
    func reads() throws {
        let configuration = try ConfigurationLoader.parse(text: Self.good, fileName: "test.yaml", baseDirectory: Self.folder)
        let app = configuration.tenants[0].apps[0]
        #expect(app.type == .confidential)
        #expect(app.federatedCredentials == [
            FederatedCredential(issuer: "https://oidc.cluster.example/", subject: "system:serviceaccount:default:worker",
                                audiences: ["api://AzureADTokenExchange"]),
            FederatedCredential(issuer: "https://localhost:8443/6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11/v2.0",
                                subject: "11111111-2222-4333-8444-555555555555", audiences: ["7c2d9e4f-1b3a-4c5d-8e6f-a0b1c2d3e4f5"]),
        ])
        #expect(configuration.trustedIssuers.map(\.issuer) == ["https://oidc.cluster.example/", "http://127.0.0.1:9999/issuer"])
        guard case .file(let source, let keySet) = configuration.trustedIssuers[0].keys else { Issue.record("a file"); return }
        #expect(source == "keys.json" && keySet.keys.map(\.keyID) == ["example-cluster-key-1"])
        #expect(configuration.trustedIssuers[1].keys == .uri("http://127.0.0.1:9999/jwks"))
    }

    @Test("config print writes both keys, and what it writes loads to the same configuration")
    func printsAndReloads() throws {
        let configuration = try ConfigurationLoader.parse(text: Self.good, fileName: "test.yaml", baseDirectory: Self.folder)
        let printed = ConfigurationWriter.yaml(configuration)
        #expect(printed.contains("federatedCredentials:") && printed.contains("trustedIssuers:") && printed.contains("jwks: keys.json"))
        #expect(try ConfigurationLoader.parse(text: printed, fileName: "printed.yaml", baseDirectory: Self.folder) == configuration)
    }

    @Test("every problem has its line: issuer URLs, empty values, duplicates, the type, untrusted issuers")
    func credentialProblems() {
        #expect(problems("""
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            apps:
              - clientId: 8c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f
                federatedCredentials:
                  - issuer: http://oidc.cluster.example/
                    subject: worker
                    audiences: [a]
                  - issuer: https://oidc.cluster.example/
                    subject: ""
                    audiences: []
                  - issuer: https://oidc.cluster.example/
                    subject: worker
                    audiences: [a, a]
                  - issuer: https://oidc.cluster.example/
                    subject: worker
                    audiences: [b]
                  - issuer: https://untrusted.example/
                    subject: worker
                    audiences: [a]
              - clientId: 9d2e3f4a-5b6c-4d7e-8f9a-0b1c2d3e4f5a
                type: public
                federatedCredentials:
                  - {issuer: "https://oidc.cluster.example/", subject: s, audiences: [a]}
        trustedIssuers:
          - issuer: https://oidc.cluster.example/
            jwks: keys.json
        """) == [
            "test.yaml:6: tenants[0].apps[0].federatedCredentials[0].issuer: must be an absolute https URL (or http on localhost, 127.0.0.1 or [::1]), such as https://token.actions.githubusercontent.com",
            "test.yaml:10: tenants[0].apps[0].federatedCredentials[1].subject: must be a non-empty string",
            "test.yaml:11: tenants[0].apps[0].federatedCredentials[1].audiences: must list at least one audience, such as api://AzureADTokenExchange",
            "test.yaml:14: tenants[0].apps[0].federatedCredentials[2].audiences[1]: 'a' is already listed at line 14",
            "test.yaml:15: tenants[0].apps[0].federatedCredentials[3]: issuer 'https://oidc.cluster.example/' with subject 'worker' is already a federated credential of this app (line 12)",
            "test.yaml:18: tenants[0].apps[0].federatedCredentials[4].issuer: issuer 'https://untrusted.example/' is not trusted: add it to trustedIssuers (with jwks or jwksUri), or name a tenant of this server by its v2 issuer, https://<host>/<tenant id>/v2.0",
            "test.yaml:24: tenants[0].apps[1].federatedCredentials: a public client cannot hold federated credentials (they are client credentials)",
        ])
    }

    @Test("trusted issuers: exactly one of jwks and jwksUri, a readable JWKS with RSA keys, each issuer once")
    func issuerProblems() {
        #expect(problems("""
        trustedIssuers:
          - issuer: https://a.example/
          - issuer: https://b.example/
            jwks: keys.json
            jwksUri: https://b.example/jwks
          - issuer: https://c.example/
            jwks: missing.json
          - issuer: https://d.example/
            jwks: ec.json
          - issuer: https://e.example/
            jwks: text.json
          - issuer: https://f.example/
            jwksUri: http://f.example/jwks
          - issuer: https://g.example/
            jwks: keys.json
          - issuer: https://g.example/
            jwksUri: https://g.example/jwks
          - jwks: keys.json
        """) == [
            "test.yaml:2: trustedIssuers[0]: needs the issuer's keys: jwks (a JWKS file) or jwksUri (its URL)",
            "test.yaml:3: trustedIssuers[1]: give either jwks (a file) or jwksUri (a URL), not both",
            "test.yaml:7: trustedIssuers[2].jwks: key set 'missing.json': no such file",
            "test.yaml:9: trustedIssuers[3].jwks: key set 'ec.json' holds no RSA key (federated tokens are RS256)",
            "test.yaml:11: trustedIssuers[4].jwks: key set 'text.json' is not JSON: " + Self.notJSONReason,
            "test.yaml:13: trustedIssuers[5].jwksUri: must be an absolute https URL (or http on localhost, 127.0.0.1 or [::1]), such as https://token.actions.githubusercontent.com",
            "test.yaml:16: trustedIssuers[7].issuer: issuer 'https://g.example/' is already trusted at line 14",
            "test.yaml:18: trustedIssuers[8]: missing required key 'issuer'",
        ])
    }

    /// How the JSON reader words `keys` (kept out of the expectation above).
    static var notJSONReason: String {
        let problems = ConfigurationFixtures.problems("trustedIssuers: [{issuer: 'https://e.example/', jwks: text.json}]", baseDirectory: folder)
        return problems.first.flatMap { $0.components(separatedBy: "is not JSON: ").last } ?? "?"
    }

    @Test("files merge trustedIssuers: joined, a later entry for the same issuer replaces the earlier one")
    func merging() throws {
        let first = Self.folder + "/first.yaml", second = Self.folder + "/second.yaml"
        try Self.good.write(toFile: first, atomically: true, encoding: .utf8)
        try """
        trustedIssuers:
          - issuer: http://127.0.0.1:9999/issuer
            jwksUri: http://127.0.0.1:9999/other-jwks
          - issuer: https://token.actions.githubusercontent.com
            jwksUri: https://token.actions.githubusercontent.com/.well-known/jwks
        """.write(toFile: second, atomically: true, encoding: .utf8)
        let merged = try ConfigurationLoader.load(paths: [first, second])
        #expect(merged.trustedIssuers.map(\.issuer) == ["https://oidc.cluster.example/", "http://127.0.0.1:9999/issuer",
                                                        "https://token.actions.githubusercontent.com"])
        #expect(merged.trustedIssuers[1].keys == .uri("http://127.0.0.1:9999/other-jwks"))
    }

    @Test("the control API's app body takes federatedCredentials, checked against the served configuration")
    func controlBody() throws {
        let configuration = try ConfigurationLoader.parse(text: Self.good, fileName: "test.yaml", baseDirectory: Self.folder)
        let app = try ConfigurationLoader.decodeApp(
            text: #"{"clientId": "1e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b", "federatedCredentials": [{"issuer": "http://127.0.0.1:9999/issuer", "subject": "s", "audiences": ["a"]}]}"#,
            fileName: "body", baseDirectory: ".", tenantID: "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11", joining: configuration)
        #expect(app.type == .confidential && app.federatedCredentials.count == 1)
        #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader.decodeApp(
                text: #"{"clientId": "1e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b", "federatedCredentials": [{"issuer": "https://nobody.example", "subject": "s", "audiences": ["a"]}]}"#,
                fileName: "body", baseDirectory: ".", tenantID: "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11", joining: configuration)
        }
    }
}
