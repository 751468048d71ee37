import MockIDPConfiguration
import MockIDPCore
import Testing

@Suite struct ConfigurationLoaderMergingTests {
    @Test("later files override token lifetimes one by one, add hosts, and merge tenants by id")
    func mergeRules() throws {
        let directory = try TemporaryDirectory()
        let first = try directory.write("first.yaml", """
        tokens:
          lifetime: 600
          codeLifetime: 120
        hosts: [a.example, b.example]
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            name: Contoso
            cloud: usgov
            domains: [contoso.com]
            users:
              - username: alice@contoso.com
                password: first
                name: Alice
                roles: [Admin]
              - username: bob@contoso.com
                password: bob
            apps:
              - clientId: 7c2d9e4f-1b3a-4c5d-8e6f-a0b1c2d3e4f5
                name: Contoso API
                secret: s
                identifierUris: [api://contoso-api]
                scopes: [read]
          - id: 2b7e151d-aed2-4a6b-9c1f-3d4e5f6a7b8c
            name: Fabrikam
        """)
        let second = try directory.write("second.yaml", """
        tokens:
          lifetime: 900
        hosts: [b.example, c.example]
        tenants:
          - id: 6A1F3C1E-0D5B-4C36-9D62-2F0A8F4B7C11
            name: Contoso Ltd
            domains: [CONTOSO.com, contoso.onmicrosoft.com]
            users:
              - username: ALICE@contoso.com
                password: second
              - username: carol@contoso.com
                password: carol
            apps:
              - clientId: 7C2D9E4F-1B3A-4C5D-8E6F-A0B1C2D3E4F5
                name: Contoso API v2
                secret: s2
                identifierUris: [api://contoso-api]
                scopes: [read, write]
              - clientId: 3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c
                apiPermissions: {api://contoso-api: [read]}
          - id: 40f96159-8d88-4ed7-904d-13e2ab60bf45
            name: Tailspin
        """)
        let configuration = try ConfigurationLoader.load(paths: [first, second])
        #expect(configuration.tokens == TokenSettings(lifetime: 900, refreshLifetime: 86400, codeLifetime: 120))
        #expect(configuration.hosts == ["a.example", "b.example", "c.example"])
        #expect(configuration.tenants.map(\.name) == ["Contoso Ltd", "Fabrikam", "Tailspin"])

        let contoso = configuration.tenants[0]
        #expect(contoso.cloud == .usgov)
        #expect(contoso.domains == ["contoso.com", "contoso.onmicrosoft.com"])
        #expect(contoso.users.map(\.username) == ["ALICE@contoso.com", "bob@contoso.com", "carol@contoso.com"])
        // Replaced whole: the earlier name and roles are gone.
        #expect(contoso.users[0] == User(username: "ALICE@contoso.com", password: "second",
                                         objectID: User.derivedObjectID(tenantID: contoso.id, username: "alice@contoso.com")))
        #expect(contoso.apps.map(\.name) == ["Contoso API v2", nil])
        #expect(contoso.apps[0].scopes == ["read", "write"])
        #expect(contoso.apps[0].secret == "s2")

        // Order matters: the first file wins the other way round.
        let reversed = try ConfigurationLoader.load(paths: [second, first])
        #expect(reversed.tokens == TokenSettings(lifetime: 600, refreshLifetime: 86400, codeLifetime: 120))
        #expect(reversed.hosts == ["b.example", "c.example", "a.example"])
        #expect(reversed.tenants.map(\.name) == ["Contoso", "Tailspin", "Fabrikam"])
    }

    @Test("problems after merging name the file and line each value came from")
    func problemsNameTheirFile() throws {
        let directory = try TemporaryDirectory()
        let first = try directory.write("first.yaml", """
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            domains: [contoso.com]
            users:
              - username: alice@contoso.com
                password: p
                oid: 0c3e9d2a-5b7f-4e1a-9c8d-1f2e3d4c5b6a
              - username: carol@contoso.com
                password: c
            apps:
              - clientId: 3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c
                secrett: x
        """)
        let second = try directory.write("second.yaml", """
        tenants:
          - id: 2b7e151d-aed2-4a6b-9c1f-3d4e5f6a7b8c
            domains: [contoso.com]
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            users:
              - username: bob@contoso.com
                password: p
                oid: 0c3e9d2a-5b7f-4e1a-9c8d-1f2e3d4c5b6a
              - username: bob@contoso.com
                password: q
              - username: carol@contoso.com
                password: c2
              - username: Carol@contoso.com
                password: c3
        """)
        // Carol of the second file replaces Carol of the first; the second file's second Carol is a duplicate
        // within that file, not a second replacement.
        #expect(ConfigurationFixtures.loadProblems([first, second]) == [
            "\(first):12: tenants[0].apps[0]: unknown key 'secrett'; did you mean 'secret'?",
            "\(second):3: tenants[0].domains[0]: domain 'contoso.com' already belongs to tenant 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11 (\(first):3)",
            "\(second):8: tenants[1].users[0].oid: object id 0c3e9d2a-5b7f-4e1a-9c8d-1f2e3d4c5b6a is already the oid of 'alice@contoso.com' (\(first):7)",
            "\(second):9: tenants[1].users[1].username: user 'bob@contoso.com' is already declared at line 6",
            "\(second):13: tenants[1].users[3].username: user 'Carol@contoso.com' is already declared at line 11",
        ])
    }

    @Test("a later file may use what an earlier file declares")
    func laterFileUsesEarlierDeclarations() throws {
        let directory = try TemporaryDirectory()
        let base = try directory.write("base.yaml", ConfigurationLoader.embeddedDefaultText)
        let extra = try directory.write("extra.yaml", """
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            apps:
              - clientId: 0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0
                name: Contoso Reports
                type: spa
                redirectUris: [https://reports.contoso.com]
                apiPermissions: {api://contoso-api: [access_as_user]}
        """)
        let configuration = try ConfigurationLoader.load(paths: [base, extra])
        #expect(configuration.tenants[0].apps.map(\.name) == ["Contoso Mobile", "Contoso Daemon", "Contoso API", "Contoso Web",
                                                             "Contoso Reports"])
        #expect(configuration.tenants[0].users == (try ConfigurationLoader.load(paths: [])).tenants[0].users)
    }

    @Test("merging built configurations treats default values as not set")
    func mergeBuiltConfigurations() {
        let contoso = Tenant(id: "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11", domains: ["contoso.com"], name: "Contoso", cloud: .china,
                             users: [User(username: "alice@contoso.com", password: "a", objectID: "0c3e9d2a-5b7f-4e1a-9c8d-1f2e3d4c5b6a")])
        let base = IdentityProviderConfiguration(tokens: TokenSettings(lifetime: 600), hosts: ["a.example"], tenants: [contoso])
        let overlay = IdentityProviderConfiguration(
            tokens: TokenSettings(refreshLifetime: 7200), hosts: ["a.example", "b.example"],
            tenants: [Tenant(id: contoso.id, domains: ["contoso.net"],
                             users: [User(username: "ALICE@contoso.com", password: "b", objectID: "0c3e9d2a-5b7f-4e1a-9c8d-1f2e3d4c5b6a")])])
        let merged = ConfigurationLoader.merge([base, overlay])
        #expect(merged.tokens == TokenSettings(lifetime: 600, refreshLifetime: 7200, codeLifetime: 300))
        #expect(merged.hosts == ["a.example", "b.example"])
        #expect(merged.tenants.count == 1)
        #expect(merged.tenants[0].name == "Contoso")
        #expect(merged.tenants[0].cloud == .china)
        #expect(merged.tenants[0].domains == ["contoso.com", "contoso.net"])
        #expect(merged.tenants[0].users.map(\.password) == ["b"])
        #expect(ConfigurationLoader.merge([]) == IdentityProviderConfiguration())
        #expect(ConfigurationLoader.merge([base]) == base)
    }
}
