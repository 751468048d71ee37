import MockIDPConfiguration
import MockIDPCore
import Testing

@Suite struct ConfigurationValidatorTests {
    private func problems(_ text: String) -> [String] { ConfigurationFixtures.problems(text) }

    @Test("tenant ids, domains, usernames, object ids and client ids must be unique")
    func uniqueness() {
        #expect(problems("""
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            name: Contoso
            domains: [contoso.com]
            users:
              - username: alice@contoso.com
                password: a
                oid: 0c3e9d2a-5b7f-4e1a-9c8d-1f2e3d4c5b6a
              - username: ALICE@contoso.com
                password: b
              - username: bob@contoso.com
                password: c
                oid: 0c3e9d2a-5b7f-4e1a-9c8d-1f2e3d4c5b6a
            apps:
              - clientId: 3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c
              - clientId: 3F6C2B1A-8E4D-4F7A-B9C0-5D1E2F3A4B5C
          - id: 2b7e151d-aed2-4a6b-9c1f-3d4e5f6a7b8c
            domains: [Contoso.com, fabrikam.com]
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
        """) == [
            "test.yaml:9: tenants[0].users[1].username: user 'ALICE@contoso.com' is already declared at line 6",
            "test.yaml:13: tenants[0].users[2].oid: object id 0c3e9d2a-5b7f-4e1a-9c8d-1f2e3d4c5b6a is already the oid of 'alice@contoso.com' (line 8)",
            "test.yaml:16: tenants[0].apps[1].clientId: app 3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c is already declared at line 15",
            "test.yaml:18: tenants[1].domains[0]: domain 'contoso.com' already belongs to tenant Contoso (6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11) (line 4)",
            "test.yaml:19: tenants[2].id: tenant 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11 is already declared at line 2",
        ])
    }

    @Test("credentials must fit the client type")
    func credentials() {
        #expect(problems("""
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            apps:
              - clientId: 3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c
                type: public
                secret: s3cr3t
              - clientId: 9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d
                type: spa
                secret: s3cr3t
              - clientId: 7c2d9e4f-1b3a-4c5d-8e6f-a0b1c2d3e4f5
                type: confidential
        """) == [
            "test.yaml:6: tenants[0].apps[0].secret: a public client cannot hold a secret",
            "test.yaml:9: tenants[0].apps[1].secret: a spa client cannot hold a secret",
            "test.yaml:11: tenants[0].apps[2].type: a confidential client needs a secret, a certificate or a federated credential",
        ])
    }

    @Test("only public clients can be in the family of client IDs")
    func familyOfClientIDs() {
        #expect(problems("""
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            apps:
              - clientId: 3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c
                type: public
                foci: true
              - clientId: 9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d
                secret: s3cr3t
                foci: true
              - clientId: 7c2d9e4f-1b3a-4c5d-8e6f-a0b1c2d3e4f5
                type: spa
                foci: false
        """) == ["test.yaml:9: tenants[0].apps[1].foci: only public clients can be in the family of client IDs (foci); this app is confidential"])
    }

    @Test("a public client cannot hold certificates")
    func publicClientCertificates() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.pem", ConfigurationFixtures.certificatePEM)
        #expect(ConfigurationFixtures.problems("""
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            apps:
              - clientId: 3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c
                type: public
                certificates: [app.pem]
        """, baseDirectory: directory.path) == ["test.yaml:6: tenants[0].apps[0].certificates: a public client cannot hold certificates"])
    }

    @Test("redirect URIs follow Entra's rules for each kind of client")
    func redirectURIs() {
        let long = "https://app.contoso.com/" + String(repeating: "a", count: 233)
        #expect(problems("""
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            apps:
              - clientId: 3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c
                type: public
                redirectUris:
                  - msauth.com.contoso.app://auth
                  - myapp://callback
                  - http://localhost:8400/
                  - http://127.0.0.1
                  - http://[::1]:5000/cb
                  - https://login.microsoftonline.com/common/oauth2/nativeclient
                  - http://app.contoso.com/callback
                  - /relative/callback
                  - https://app.contoso.com/callback#fragment
                  - \(long)
                  - https:///no-host
              - clientId: 9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d
                type: spa
                redirectUris: [http://localhost:3000, https://spa.contoso.com, myapp://callback]
              - clientId: 7c2d9e4f-1b3a-4c5d-8e6f-a0b1c2d3e4f5
                secret: s
                redirectUris: [https://web.contoso.com/signin-oidc, http://LOCALHOST/signin, msauth.com.contoso.app://auth]
        """) == [
            "test.yaml:13: tenants[0].apps[0].redirectUris[6]: may use http only on localhost, 127.0.0.1 or [::1]; use https",
            "test.yaml:14: tenants[0].apps[0].redirectUris[7]: must be an absolute URI with a scheme, such as https://app.contoso.com/callback",
            "test.yaml:15: tenants[0].apps[0].redirectUris[8]: cannot contain a fragment (#)",
            "test.yaml:16: tenants[0].apps[0].redirectUris[9]: is longer than 256 characters",
            "test.yaml:17: tenants[0].apps[0].redirectUris[10]: must name a host",
            "test.yaml:20: tenants[0].apps[1].redirectUris[2]: a spa client needs https (or http on localhost, 127.0.0.1 or [::1])",
            "test.yaml:23: tenants[0].apps[2].redirectUris[2]: a custom scheme is for public clients (mobile and desktop apps); a confidential client needs https",
        ])
    }

    @Test("a redirect URI of exactly 256 characters is allowed")
    func redirectURILengthLimit() {
        let uri = "https://app.contoso.com/" + String(repeating: "a", count: 232)
        #expect(uri.count == 256)
        #expect(problems("""
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            apps: [{clientId: 3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c, redirectUris: ["\(uri)"]}]
        """) == [])
    }

    @Test("identifier URIs are absolute and unique within the tenant")
    func identifierURIs() {
        #expect(problems("""
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            apps:
              - clientId: 3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c
                name: First API
                identifierUris: [api://contoso-api, contoso-api]
              - clientId: 9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d
                identifierUris: [API://Contoso-API, https://api.contoso.com]
          - id: 2b7e151d-aed2-4a6b-9c1f-3d4e5f6a7b8c
            apps:
              - clientId: 7c2d9e4f-1b3a-4c5d-8e6f-a0b1c2d3e4f5
                identifierUris: [api://contoso-api]
        """) == [
            "test.yaml:6: tenants[0].apps[0].identifierUris[1]: must be an absolute URI such as api://contoso-api, without a fragment (#)",
            "test.yaml:8: tenants[0].apps[1].identifierUris[0]: 'API://Contoso-API' is already an identifier URI of First API (line 6)",
        ])
    }

    @Test("API permissions name a known API and what it exposes")
    func apiPermissions() {
        #expect(problems("""
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            name: Contoso
            apps:
              - clientId: 3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c
                apiPermissions:
                  api://contoso-api: [access_as_user, Reader, admin]
                  7C2D9E4F-1B3A-4C5D-8E6F-A0B1C2D3E4F5: [Writer]
                  https://graph.microsoft.com/: [User.Read, Mail.ReadWrite.All, user_read]
                  00000003-0000-0000-c000-000000000000: [Directory.Read.All]
                  api://nowhere: [x]
                  api://fabrikam-api: [Fabrikam.Read]
                  api://fabrikam-private: [read]
              - clientId: 7c2d9e4f-1b3a-4c5d-8e6f-a0b1c2d3e4f5
                name: Contoso API
                identifierUris: [api://contoso-api]
                scopes: [access_as_user]
                appRoles: [Reader, Writer]
          - id: 2b7e151d-aed2-4a6b-9c1f-3d4e5f6a7b8c
            name: Fabrikam
            apps:
              - clientId: 4d5e6f7a-8b9c-4d0e-a1f2-b3c4d5e6f7a8
                name: Fabrikam API
                identifierUris: [api://fabrikam-api]
                scopes: [Fabrikam.Read]
                multiTenant: true
              - clientId: 5e8f1a2b-3c4d-4e5f-9a0b-1c2d3e4f5a6b
                name: Fabrikam Private
                identifierUris: [api://fabrikam-private]
                scopes: [read]
        """) == [
            "test.yaml:7: tenants[0].apps[0].apiPermissions[\"api://contoso-api\"][2]: 'admin' is neither a scope nor an app role of Contoso API",
            "test.yaml:9: tenants[0].apps[0].apiPermissions[\"https://graph.microsoft.com/\"][2]: 'user_read' is not a Microsoft Graph permission (such as User.Read or Mail.ReadWrite.All)",
            "test.yaml:11: tenants[0].apps[0].apiPermissions[\"api://nowhere\"]: no app of this tenant (nor a multiTenant app of another) has this client id or identifier URI",
            "test.yaml:13: tenants[0].apps[0].apiPermissions[\"api://fabrikam-private\"]: names Fabrikam Private of tenant Fabrikam (2b7e151d-aed2-4a6b-9c1f-3d4e5f6a7b8c), which is not multiTenant",
        ])
    }

    @Test("a guest's home tenant is another tenant")
    func homeTenant() {
        #expect(problems("""
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            users:
              - username: guest@contoso.com
                password: p
                homeTenant: 6A1F3C1E-0D5B-4C36-9D62-2F0A8F4B7C11
        """) == ["test.yaml:6: tenants[0].users[0].homeTenant: a guest's home tenant must be another tenant than the one the user is in"])
    }

    @Test("many problems of every kind are reported at once, in line order")
    func severalProblemsAtOnce() {
        #expect(problems("""
        tokens:
          lifetime: 30
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            users:
              - username: alice@contoso.com
                pasword: x
            apps:
              - clientId: 3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c
                type: public
                secret: s
                redirectUris: [http://example.com]
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
        """) == [
            "test.yaml:2: tokens.lifetime: must be a whole number of seconds from 60 to 315360000 (ten years)",
            "test.yaml:6: tenants[0].users[0]: missing required key 'password'",
            "test.yaml:7: tenants[0].users[0]: unknown key 'pasword'; did you mean 'password'?",
            "test.yaml:11: tenants[0].apps[0].secret: a public client cannot hold a secret",
            "test.yaml:12: tenants[0].apps[0].redirectUris[0]: may use http only on localhost, 127.0.0.1 or [::1]; use https",
            "test.yaml:13: tenants[1].id: tenant 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11 is already declared at line 4",
        ])
    }

    @Test("a B2C tenant may hold users and apps")
    func b2cTenant() {
        #expect(problems("""
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            domains: [contosob2c.onmicrosoft.com]
            b2c: {policies: [B2C_1_signin, b2c_1a_custom-policy], policyClaim: acr}
            users: [{username: a@example.com, password: p}]
            apps: [{clientId: 3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c, type: spa, redirectUris: [https://spa.contoso.com]}]
        """) == [])
        #expect(problems("""
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            b2c: {policies: [B2C_1_signin, b2c_1_SIGNIN]}
        """) == ["test.yaml:3: tenants[0].b2c.policies[1]: 'b2c_1_SIGNIN' is already listed at line 3"])
    }
}
