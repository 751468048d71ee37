import MockIDPConfiguration
import MockIDPCore
import Testing

@Suite struct ConfigurationDecoderTests {
    private func problems(_ text: String) -> [String] { ConfigurationFixtures.problems(text) }

    @Test("an unknown key is a problem on its line, with a suggestion when a known key is close")
    func unknownKeys() {
        #expect(problems("""
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            apps:
              - clientId: 3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c
                secrett: s3cr3t
                redirectURIs: [http://localhost]
                colour: blue
        tennants: []
        """) == [
            "test.yaml:5: tenants[0].apps[0]: unknown key 'secrett'; did you mean 'secret'?",
            "test.yaml:6: tenants[0].apps[0]: unknown key 'redirectURIs'; did you mean 'redirectUris'?",
            "test.yaml:7: tenants[0].apps[0]: unknown key 'colour'",
            "test.yaml:8: unknown key 'tennants'; did you mean 'tenants'?",
        ])
    }

    @Test("a missing required key is a problem on the mapping's line")
    func missingRequiredKeys() {
        #expect(problems("""
        tenants:
          - name: No Id
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            users:
              - name: Nobody
                email: nobody@contoso.com
            apps:
              - {name: Nameless}
        """) == [
            "test.yaml:2: tenants[0]: missing required key 'id'",
            "test.yaml:5: tenants[1].users[0]: missing required key 'username'",
            "test.yaml:5: tenants[1].users[0]: missing required key 'password'",
            "test.yaml:8: tenants[1].apps[0]: missing required key 'clientId'",
        ])
    }

    @Test("values of the wrong type are problems naming what is expected")
    func wrongTypes() {
        #expect(problems("""
        tokens:
          lifetime: 10
          refreshLifetime: "86400"
          codeLifetime: 0
        hosts: login.microsoftonline.us
        tenants:
          - id: 6A1F3C1E-0D5B-4C36-9D62-2F0A8F4B7C1
            domains: [contoso.com, https://contoso.com, "contoso.com:443"]
            name: [Contoso]
            cloud: azure
            b2c:
              policies: [B2C_1_signin, "B2C 1 bad"]
              policyClaim: sub
            users:
              - username: alice smith
                password: ""
                oid: 42
                groups: [not-a-guid]
                roles: Admin
                claims: [department]
                requireMfa: maybe
                homeTenant: contoso
            apps:
              - clientId: 3f6c2b1a
                type: web
                accessTokenVersion: 3
                multiTenant: 1
                scopes: [read data]
                apiPermissions: [User.Read]
        """) == [
            "test.yaml:2: tokens.lifetime: must be a whole number of seconds from 60 to 315360000 (ten years)",
            "test.yaml:3: tokens.refreshLifetime: must be a whole number of seconds from 60 to 315360000 (ten years)",
            "test.yaml:4: tokens.codeLifetime: must be a whole number of seconds from 1 to 315360000 (ten years)",
            "test.yaml:5: hosts: must be a list of strings",
            "test.yaml:7: tenants[0].id: must be a GUID",
            "test.yaml:8: tenants[0].domains[1]: must be a host name such as login.microsoftonline.us (no scheme, port or path)",
            "test.yaml:8: tenants[0].domains[2]: must be a host name such as login.microsoftonline.us (no scheme, port or path)",
            "test.yaml:9: tenants[0].name: must be a string",
            "test.yaml:10: tenants[0].cloud: must be one of public, usgov, china, germany",
            "test.yaml:12: tenants[0].b2c.policies[1]: must be a policy name such as B2C_1_signupsignin (letters, digits, _ and -)",
            "test.yaml:13: tenants[0].b2c.policyClaim: must be tfp or acr",
            "test.yaml:15: tenants[0].users[0].username: must be a user name such as alice@contoso.onmicrosoft.com (no spaces)",
            "test.yaml:16: tenants[0].users[0].password: must be a non-empty string",
            "test.yaml:17: tenants[0].users[0].oid: must be a GUID",
            "test.yaml:18: tenants[0].users[0].groups[0]: must be a GUID (a group's object id)",
            "test.yaml:19: tenants[0].users[0].roles: must be a list of strings",
            "test.yaml:20: tenants[0].users[0].claims: must be a mapping of claim names to values",
            "test.yaml:21: tenants[0].users[0].requireMfa: must be true or false",
            "test.yaml:22: tenants[0].users[0].homeTenant: must be a GUID",
            "test.yaml:24: tenants[0].apps[0].clientId: must be a GUID",
            "test.yaml:25: tenants[0].apps[0].type: must be one of public, spa, confidential",
            "test.yaml:26: tenants[0].apps[0].accessTokenVersion: must be 1 or 2",
            "test.yaml:27: tenants[0].apps[0].multiTenant: must be true or false",
            "test.yaml:28: tenants[0].apps[0].scopes[0]: must be a name without spaces",
            "test.yaml:29: tenants[0].apps[0].apiPermissions: must be a mapping of APIs (client id or identifier URI) to lists of scopes or app roles",
        ])
    }

    @Test("lists report each bad item, and values listed twice")
    func listItems() {
        #expect(problems("""
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            domains:
              - contoso.com
              - [nested]
              -
              - Contoso.COM
            b2c:
              policies: []
            apps:
              - clientId: 3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c
                redirectUris: [http://localhost, http://localhost]
                apiPermissions:
                  https://graph.microsoft.com: User.Read
        """) == [
            "test.yaml:5: tenants[0].domains[1]: must be a string",
            "test.yaml:6: tenants[0].domains[2]: must be a string",
            "test.yaml:7: tenants[0].domains[3]: 'contoso.com' is already listed at line 4",
            "test.yaml:9: tenants[0].b2c.policies: must list at least one policy",
            "test.yaml:12: tenants[0].apps[0].redirectUris[1]: 'http://localhost' is already listed at line 12",
            "test.yaml:14: tenants[0].apps[0].apiPermissions[\"https://graph.microsoft.com\"]: must be a list of strings",
        ])
    }

    @Test("a duplicate key is a problem on the line of its second occurrence, and the rest is still checked")
    func duplicateKeys() {
        #expect(problems("""
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            name: Contoso
            id: 2b7e151d-aed2-4a6b-9c1f-3d4e5f6a7b8c
            users:
              - {username: a@contoso.com, password: x, password: y}
            name: Again
            cloud: nowhere
        hosts: []
        hosts: [a]
        """) == [
            "test.yaml:4: tenants[0]: duplicate key 'id'",
            "test.yaml:6: tenants[0].users[0]: duplicate key 'password'",
            "test.yaml:7: tenants[0]: duplicate key 'name'",
            "test.yaml:8: tenants[0].cloud: must be one of public, usgov, china, germany",
            "test.yaml:10: duplicate key 'hosts'",
        ])
    }

    @Test("a duplicate key in a JSON object is found on its line")
    func duplicateKeysInJSON() {
        #expect(ConfigurationFixtures.problems("""
        {
          "tenants": [],
          "hosts": [],
          "tenants": []
        }
        """, file: "c.json") == ["c.json:4: duplicate key 'tenants'"])
        // Minified: the duplicate is found in its own object only, not in a nested one nor in a sibling.
        let tenant = #"{"id": "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11", "name": "A, \"name\": {", "#
            + #""users": [{"username": "u@contoso.com", "password": "p", "name": "N"}], "name": "B"}"#
        let sibling = #"{"id": "2b7e151d-aed2-4a6b-9c1f-3d4e5f6a7b8c", "name": "C"}"#
        #expect(ConfigurationFixtures.problems(#"{"tenants": ["# + tenant + ", " + sibling + "]}", file: "c.json")
            == ["c.json:1: tenants[0]: duplicate key 'name'"])
    }

    @Test("a document that is not a mapping is one problem")
    func notAMapping() {
        #expect(problems("- tenants\n- hosts\n") == [
            "test.yaml:1: the configuration must be a mapping with the keys tokens, hosts, tenants and trustedIssuers",
        ])
        #expect(problems("just text") == [
            "test.yaml:1: the configuration must be a mapping with the keys tokens, hosts, tenants and trustedIssuers",
        ])
        #expect(problems("tenants:\n  - just text\n") == ["test.yaml:2: tenants[0]: must be a mapping"])
    }

    @Test("claims read every YAML value as JSON, keeping order and types")
    func claims() throws {
        let configuration = try ConfigurationLoader.parse(text: """
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            users:
              - username: alice@contoso.com
                password: alice
                claims:
                  zeta: last-alphabetically-first-here
                  count: 42
                  hex: 0x1F
                  ratio: 2.5
                  exponent: 1e3
                  enabled: yes
                  disabled: off
                  quoted: "yes"
                  nothing: ~
                  empty:
                  date: 2024-01-31
                  list: [1, two, 3.0]
                  object: {b: 1, a: 2}
                  "with space": ok
        """, fileName: "test.yaml", baseDirectory: ".")
        let claims = configuration.tenants[0].users[0].claims
        #expect(claims.keys == ["zeta", "count", "hex", "ratio", "exponent", "enabled", "disabled", "quoted", "nothing",
                                "empty", "date", "list", "object", "with space"])
        #expect(claims == [
            "zeta": "last-alphabetically-first-here", "count": 42, "hex": 31, "ratio": 2.5, "exponent": 1000.0,
            "enabled": true, "disabled": false, "quoted": "yes", "nothing": nil, "empty": nil, "date": "2024-01-31",
            "list": [1, "two", 3.0], "object": ["b": 1, "a": 2], "with space": "ok",
        ])
        #expect(claims["object"]?.objectValue?.keys == ["b", "a"])
    }

    @Test("claims that JSON cannot carry are problems")
    func claimProblems() {
        let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        #expect(problems("""
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            users:
              - username: alice@contoso.com
                password: alice
                claims:
                  infinite: .inf
                  huge: 123456789012345678901234567890
                  deep: \(deep)
        """) == [
            "test.yaml:7: tenants[0].users[0].claims.infinite: must be a finite number (JSON has no infinity or NaN)",
            "test.yaml:8: tenants[0].users[0].claims.huge: is too large for a 64-bit integer",
            "test.yaml:9: tenants[0].users[0].claims.deep\(String(repeating: "[0]", count: 32)): nests more than 32 levels deep",
        ])
    }

    @Test("string fields take a scalar's text as written, and an empty value is the same as no value")
    func scalarsAsText() throws {
        let configuration = try ConfigurationLoader.parse(text: """
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            name: 2024
            cloud: Public
            users:
              - username: alice@contoso.com
                password: 0012345
                name: yes
                email: ~
                oid:
        """, fileName: "test.yaml", baseDirectory: ".")
        let tenant = configuration.tenants[0]
        #expect(tenant.name == "2024")
        #expect(tenant.cloud == .public)
        #expect(tenant.users[0].password == "0012345")
        #expect(tenant.users[0].name == "yes")
        #expect(tenant.users[0].email == nil)
        #expect(tenant.users[0].objectID == User.derivedObjectID(tenantID: tenant.id, username: "alice@contoso.com"))
    }

    @Test("identifiers are stored lower-case, and host names too")
    func lowerCasing() throws {
        let configuration = try ConfigurationLoader.parse(text: """
        hosts: [LOGIN.MicrosoftOnline.US, login.microsoftonline.us]
        tenants:
          - id: 6A1F3C1E-0D5B-4C36-9D62-2F0A8F4B7C11
            domains: [Contoso.COM]
            users:
              - username: Alice@Contoso.com
                password: x
                oid: 0C3E9D2A-5B7F-4E1A-9C8D-1F2E3D4C5B6A
                groups: [A8F2C1D4-7B3E-4F5A-9C6D-2E1F0A9B8C7D]
                homeTenant: 2B7E151D-AED2-4A6B-9C1F-3D4E5F6A7B8C
            apps:
              - clientId: 3F6C2B1A-8E4D-4F7A-B9C0-5D1E2F3A4B5C
        """, fileName: "test.yaml", baseDirectory: ".")
        #expect(configuration.hosts == ["login.microsoftonline.us"])
        let tenant = configuration.tenants[0]
        #expect(tenant.id == "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11")
        #expect(tenant.domains == ["contoso.com"])
        #expect(tenant.users[0].username == "Alice@Contoso.com")
        #expect(tenant.users[0].objectID == "0c3e9d2a-5b7f-4e1a-9c8d-1f2e3d4c5b6a")
        #expect(tenant.users[0].groups == ["a8f2c1d4-7b3e-4f5a-9c6d-2e1f0a9b8c7d"])
        #expect(tenant.users[0].homeTenantID == "2b7e151d-aed2-4a6b-9c1f-3d4e5f6a7b8c")
        #expect(tenant.apps[0].clientID == "3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c")
    }

    @Test("an app's type defaults to confidential with a credential, public without")
    func defaultClientType() throws {
        let configuration = try ConfigurationLoader.parse(text: """
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            apps:
              - clientId: 3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c
              - clientId: 9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d
                secret: s
              - clientId: 7c2d9e4f-1b3a-4c5d-8e6f-a0b1c2d3e4f5
                type: SPA
        """, fileName: "test.yaml", baseDirectory: ".")
        #expect(configuration.tenants[0].apps.map(\.type) == [.public, .confidential, .spa])
        #expect(configuration.tenants[0].apps.map(\.accessTokenVersion) == [nil, nil, nil])
        #expect(configuration.tenants[0].apps.map(\.multiTenant) == [false, false, false])
    }

    @Test("anchors, aliases and merge keys share values")
    func anchorsAndMergeKeys() throws {
        let configuration = try ConfigurationLoader.parse(text: """
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            users:
              - &alice
                username: alice@contoso.com
                password: shared-password
                roles: &roles [Reader, Writer]
                claims: {department: Sales, level: 1}
              - <<: *alice
                username: bob@contoso.com
                claims: {<<: {department: Sales, level: 1}, level: 2}
              - {username: carol@contoso.com, password: p, roles: *roles}
        """, fileName: "test.yaml", baseDirectory: ".")
        let users = configuration.tenants[0].users
        #expect(users.map(\.username) == ["alice@contoso.com", "bob@contoso.com", "carol@contoso.com"])
        #expect(users[1].password == "shared-password")
        #expect(users[1].roles == ["Reader", "Writer"])
        #expect(users[1].claims == ["department": "Sales", "level": 2])
        #expect(users[2].roles == ["Reader", "Writer"])
        // Quoted, `<<` is an ordinary (here unknown) key.
        #expect(problems("hosts: []\n\"<<\": {}\n") == ["test.yaml:2: unknown key '<<'"])
    }

    @Test("keys that are lists or mappings are problems")
    func complexKeys() {
        #expect(problems("""
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            [name]: Contoso
        """) == ["test.yaml:3: tenants[0]: a key must be a name, not a list or a mapping"])
    }
}
