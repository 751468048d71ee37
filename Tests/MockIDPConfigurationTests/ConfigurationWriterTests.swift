import MockIDPConfiguration
import MockIDPCore
import Testing

@Suite struct ConfigurationWriterTests {
    private func roundTrip(_ configuration: IdentityProviderConfiguration, baseDirectory: String = ".") throws -> IdentityProviderConfiguration {
        try ConfigurationLoader.parse(text: ConfigurationWriter.yaml(configuration), fileName: "printed.yaml", baseDirectory: baseDirectory)
    }

    @Test("the default configuration prints and parses back equal")
    func defaultRoundTrip() throws {
        let configuration = try ConfigurationLoader.load(paths: [])
        #expect(try roundTrip(configuration) == configuration)
    }

    @Test("each example prints and parses back equal", arguments: ConfigurationFixtures.exampleNames)
    func exampleRoundTrip(name: String) throws {
        let configuration = try ConfigurationLoader.load(paths: [ConfigurationFixtures.configDirectory + "/examples/" + name])
        // Files the example names (a key set) resolve against its folder, as they did when it loaded.
        #expect(try roundTrip(configuration, baseDirectory: ConfigurationFixtures.configDirectory + "/examples") == configuration)
    }

    @Test("the printed configuration is in schema order with defaults filled in")
    func printedForm() throws {
        let text = ConfigurationWriter.yaml(try ConfigurationLoader.load(paths: []))
        let lines = text.split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(6)) == [
            "tokens:", "  lifetime: 3600", "  refreshLifetime: 86400", "  codeLifetime: 300", "tenants:",
            "  - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11",
        ])
        let bob = User.derivedObjectID(tenantID: "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11", username: "bob@contoso.onmicrosoft.com")
        #expect(lines.contains("        oid: \(bob)"))
        #expect(lines.contains("    cloud: public"))
        #expect(lines.contains("        requireMfa: false"))
        #expect(lines.contains("        type: confidential"))
        #expect(lines.contains("          https://graph.microsoft.com: [User.Read]"))
        #expect(!text.contains("hosts:"))
    }

    @Test("an empty configuration prints as one that parses back empty")
    func emptyRoundTrip() throws {
        let text = ConfigurationWriter.yaml(IdentityProviderConfiguration())
        #expect(text == "tokens:\n  lifetime: 3600\n  refreshLifetime: 86400\n  codeLifetime: 300\ntenants: []\n")
        #expect(try roundTrip(IdentityProviderConfiguration()) == IdentityProviderConfiguration())
    }

    @Test("strings YAML would read as something else are quoted, and parse back unchanged")
    func trickyStrings() throws {
        let tricky = ["yes", "No", "on", "true", "null", "~", "123", "0x1F", "0755", "1e3", ".inf", "2024-01-31", "<<", "=",
                      "key: value", "a #comment", "#hash", "-dash", "- item", "? what", "[x]", "{y}", "*star", "&anchor",
                      "!bang", "%percent", "@at", "`tick", "'single'", "\"double\"", "back\\slash", " leading", "trailing ",
                      "colon:", "multi\nline", "tab\there", "bell\u{7}", "ünïcödé", "emoji \u{1F600}", "nbsp\u{A0}",
                      "line\u{2028}separator", "private\u{E001}use", "a, b", "c]"]
        var claims = ClaimSet()
        for (index, value) in tricky.enumerated() {
            claims["k\(index)"] = .string(value)
            claims[value] = .int(index)
        }
        claims["nested"] = ["list": [1, -2.5, 1e-7, nil, true, [], [:], ["deep": [["x": "y"]]]], "empty": [:], "none": []]
        claims["numbers"] = [.int(Int.max), .int(Int.min), .double(0.1), .double(-0.0), .double(1e300)]
        claims[String(repeating: "k", count: 1100)] = "a key longer than YAML's 1024-character limit for plain keys"
        let users = tricky.enumerated().map { index, value in
            User(username: "user\(index)@contoso.com", password: value, name: value, objectID: GUID.derived(from: "\(index)"),
                 email: value, roles: [value.filter(\.isLetter)].filter { !$0.isEmpty })
        }
        var tenant = Tenant(id: "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11", domains: ["contoso.com"], name: "yes", users: users)
        tenant.users[0].claims = claims
        tenant.apps = [Application(clientID: "3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c", name: "#1 app: the best", type: .public,
                                   redirectURIs: ["http://localhost/cb?a=1,2", "myapp://x#", "myapp://[y]"].filter { !$0.contains("#") },
                                   apiPermissions: [APIPermission(resource: "https://graph.microsoft.com", values: ["User.Read"])])]
        let configuration = IdentityProviderConfiguration(tokens: TokenSettings(lifetime: 60), hosts: ["x.example"], tenants: [tenant])
        let parsed = try roundTrip(configuration)
        #expect(parsed == configuration)
        #expect(parsed.tenants[0].users[0].claims.keys == claims.keys)
    }

    @Test("certificates print as the paths they were read from")
    func certificatesRoundTrip() throws {
        let directory = try TemporaryDirectory()
        try directory.write("certs/app.pem", ConfigurationFixtures.certificatePEM)
        let configuration = try ConfigurationLoader.parse(text: """
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            apps: [{clientId: 9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d, certificates: [certs/app.pem]}]
        """, fileName: "app.yaml", baseDirectory: directory.path)
        #expect(ConfigurationWriter.yaml(configuration).contains("        certificates: [certs/app.pem]\n"))
        #expect(try roundTrip(configuration, baseDirectory: directory.path) == configuration)
    }
}
