import MockIDPConfiguration
import MockIDPCore
import Testing

/// Well-formed documents take the event reader, the others the careful one: both must read the same.
@Suite struct YAMLReadersTests {
    private static let tenant = "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11"

    @Test("anchors, aliases and merge keys read the same as before")
    func aliasesAndMergeKeys() throws {
        let text = """
            tenants:
              - id: \(Self.tenant)
                apps:
                  - &base {clientId: 3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c, type: public, redirectUris: &uris [http://localhost]}
                  - <<: *base
                    clientId: 9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d
                  - clientId: 7c2d9e4f-1b3a-4c5d-8e6f-a0b1c2d3e4f5
                    type: public
                    redirectUris: *uris
            """
        let apps = try ConfigurationLoader.parse(text: text, fileName: "t.yaml", baseDirectory: ".").tenants[0].apps
        #expect(apps.map(\.clientID) == ["3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c", "9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d",
                                         "7c2d9e4f-1b3a-4c5d-8e6f-a0b1c2d3e4f5"])
        #expect(apps.map(\.type) == [.public, .public, .public])
        #expect(apps.map(\.redirectURIs) == Array(repeating: ["http://localhost"], count: 3))
    }

    @Test("a byte order mark at the start of a scalar is dropped, as Yams' strings drop it")
    func byteOrderMarkInScalar() throws {
        let configuration = try ConfigurationLoader.parse(text: "hosts: [\"\u{FEFF}a.example\"]\n", fileName: "t.yaml", baseDirectory: ".")
        #expect(configuration.hosts == ["a.example"])
    }

    @Test("a duplicate key in an otherwise well-formed document is reported where it is")
    func duplicateKey() {
        #expect(ConfigurationFixtures.problems("tokens:\n  lifetime: 60\n  lifetime: 70\n") == [
            "test.yaml:3: tokens: duplicate key 'lifetime'",
        ])
    }

    @Test("an anchored key used again as a value reads as a string, as before")
    func anchoredKeyAsValue() throws {
        let configuration = try ConfigurationLoader.parse(text: "&n hosts: []\ntenants:\n  - id: \(Self.tenant)\n    name: *n\n",
                                                          fileName: "t.yaml", baseDirectory: ".")
        #expect(configuration.tenants[0].name == "hosts")
    }
}
