import Foundation
import MockIDPConfiguration
import MockIDPCore
import Testing

@Suite struct ConfigurationLoaderTests {
    @Test("no files load the embedded default with its exact values")
    func embeddedDefault() throws {
        let configuration = try ConfigurationLoader.load(paths: [])
        #expect(configuration.tokens == TokenSettings(lifetime: 3600, refreshLifetime: 86400, codeLifetime: 300))
        #expect(configuration.hosts == [])
        try #require(configuration.tenants.count == 2)

        let contoso = configuration.tenants[0]
        #expect(contoso.id == "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11")
        #expect(contoso.domains == ["contoso.onmicrosoft.com", "contoso.com"])
        #expect(contoso.name == "Contoso")
        #expect(contoso.cloud == .public)
        #expect(contoso.b2c == nil)
        var alice = User(username: "alice@contoso.onmicrosoft.com", password: "alice-password", name: "Alice Adams",
                         objectID: "0c3e9d2a-5b7f-4e1a-9c8d-1f2e3d4c5b6a", email: "alice@contoso.com",
                         groups: ["a8f2c1d4-7b3e-4f5a-9c6d-2e1f0a9b8c7d"], roles: ["Admin"], claims: ["department": "Sales"])
        alice.profile = ["jobTitle": "Buyer", "officeLocation": "18/2111"]
        var api = Application(clientID: "7c2d9e4f-1b3a-4c5d-8e6f-a0b1c2d3e4f5", name: "Contoso API", type: .confidential,
                              secret: "api-secret", identifierURIs: ["api://contoso-api"], scopes: ["access_as_user"],
                              appRoles: ["Reader", "Writer"], accessTokenVersion: 2)
        api.groupMembershipClaims = .securityGroup
        #expect(contoso.groups == [Group(id: "a8f2c1d4-7b3e-4f5a-9c6d-2e1f0a9b8c7d", displayName: "Sales")])
        #expect(contoso.users == [
            alice,
            User(username: "bob@contoso.onmicrosoft.com", password: "bob-password", name: "Bob Brown",
                 objectID: User.derivedObjectID(tenantID: contoso.id, username: "bob@contoso.onmicrosoft.com"),
                 requireMFA: true),
        ])
        #expect(contoso.apps == [
            Application(clientID: "3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c", name: "Contoso Mobile", type: .public,
                        redirectURIs: ["msauth.com.contoso.mobile://auth", "http://localhost",
                                       "https://login.microsoftonline.com/common/oauth2/nativeclient"],
                        apiPermissions: [APIPermission(resource: "api://contoso-api", values: ["access_as_user"]),
                                         APIPermission(resource: "https://graph.microsoft.com", values: ["User.Read"])]),
            Application(clientID: "9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d", name: "Contoso Daemon", type: .confidential,
                        secret: "daemon-secret",
                        apiPermissions: [APIPermission(resource: "api://contoso-api", values: ["Reader", "Writer"]),
                                         APIPermission(resource: "https://graph.microsoft.com", values: ["User.Read.All"])]),
            api,
            Application(clientID: "5e8f1a2b-3c4d-4e5f-9a0b-1c2d3e4f5a6b", name: "Contoso Web", type: .confidential,
                        secret: "web-secret", redirectURIs: ["https://localhost:5001/signin-oidc", "http://localhost"],
                        apiPermissions: [APIPermission(resource: "api://contoso-api", values: ["access_as_user"])]),
        ])

        let fabrikam = configuration.tenants[1]
        #expect(fabrikam.id == "2b7e151d-aed2-4a6b-9c1f-3d4e5f6a7b8c")
        #expect(fabrikam.domains == ["fabrikam.onmicrosoft.com"])
        #expect(fabrikam.name == "Fabrikam")
        #expect(fabrikam.cloud == .public)
        #expect(fabrikam.users == [
            User(username: "carol@fabrikam.onmicrosoft.com", password: "carol-password", name: "Carol Chen",
                 objectID: User.derivedObjectID(tenantID: fabrikam.id, username: "carol@fabrikam.onmicrosoft.com")),
        ])
        #expect(fabrikam.apps == [
            Application(clientID: "4d5e6f7a-8b9c-4d0e-a1f2-b3c4d5e6f7a8", name: "Fabrikam Tool", type: .public,
                        redirectURIs: ["http://localhost"]),
        ])
    }

    @Test("the embedded default is config/default.yaml, byte for byte")
    func embeddedDefaultIsTheShippedFile() throws {
        let shipped = try String(contentsOfFile: ConfigurationFixtures.configDirectory + "/default.yaml", encoding: .utf8)
        #expect(ConfigurationLoader.embeddedDefaultText == shipped)
        #expect(ConfigurationLoader.embeddedDefaultName == "<embedded default>")
    }

    @Test("every example configuration loads cleanly", arguments: ConfigurationFixtures.exampleNames)
    func exampleLoads(name: String) throws {
        let path = ConfigurationFixtures.configDirectory + "/examples/" + name
        #expect(ConfigurationFixtures.loadProblems([path]) == [])
    }

    @Test("the examples hold what they are named for")
    func examplesHoldTheirFeatures() throws {
        let examples = ConfigurationFixtures.configDirectory + "/examples/"
        let b2c = try ConfigurationLoader.load(paths: [examples + "b2c.yaml"])
        #expect(b2c.tenants[0].domains == ["fabrikamb2c.onmicrosoft.com"])
        #expect(b2c.tenants[0].b2c == B2CSettings(policies: ["B2C_1_signupsignin", "B2C_1_passwordreset", "B2C_1_profileedit", "B2C_1_ROPC_Auth", "B2C_1A_signup_signin"],
                                                  policyClaim: .tfp))

        let sovereign = try ConfigurationLoader.load(paths: [examples + "sovereign.yaml"])
        #expect(sovereign.tenants.map(\.cloud) == [.usgov, .china, .germany])
        #expect(sovereign.hosts.isEmpty)   // a tenant's cloud brings its hosts
        #expect(sovereign.servedHostNames.contains("login.microsoftonline.de"))

        let guest = try ConfigurationLoader.load(paths: [examples + "guest.yaml"])
        #expect(guest.tenants[1].users[1].homeTenantID == guest.tenants[0].id)

        let multiTenant = try ConfigurationLoader.load(paths: [examples + "multi-tenant.yaml"])
        #expect(multiTenant.tenants[0].apps[0].multiTenant)
        #expect(multiTenant.tenants[1].apps[0].apiPermissions[0] == APIPermission(resource: "api://woodgrove-orders", values: ["Orders.Read"]))

        let workload = try ConfigurationLoader.load(paths: [examples + "workload-identity.yaml"])
        #expect(workload.tenants[0].apps[0].type == .confidential)
        #expect(workload.tenants[0].apps[0].federatedCredentials.map(\.issuer) == workload.trustedIssuers.map(\.issuer))

        let family = try ConfigurationLoader.load(paths: [examples + "on-behalf-of.yaml"])
        #expect(family.tenants[0].apps.filter(\.foci).map(\.name) == ["Contoso Mail", "Contoso Calendar"])
        #expect(family.tenants[0].apps[0].apiPermissions.map(\.resource) == ["https://graph.microsoft.com", "api://contoso-downstream"])
    }

    @Test("JSON loads to the same configuration as the equivalent YAML")
    func jsonInput() throws {
        let json = """
        {"tokens": {"lifetime": 600},
         "hosts": ["Login.MicrosoftOnline.US"],
         "tenants": [{"id": "6A1F3C1E-0D5B-4C36-9D62-2F0A8F4B7C11", "domains": ["contoso.com"], "cloud": "usgov",
           "users": [{"username": "alice@contoso.com", "password": "pw", "requireMfa": true,
                      "claims": {"level": 3, "ratio": 0.5, "tags": ["a", "b"], "nested": {"x": null, "ok": false}, "text": "yes"}}],
           "apps": [{"clientId": "3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c", "redirectUris": ["http://localhost"],
                     "apiPermissions": {"https://graph.microsoft.us": ["User.Read"]}}]}]}
        """
        let yaml = """
        tokens: {lifetime: 600}
        hosts: [login.microsoftonline.us]
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            domains: [contoso.com]
            cloud: usgov
            users:
              - username: alice@contoso.com
                password: pw
                requireMfa: true
                claims:
                  level: 3
                  ratio: 0.5
                  tags: [a, b]
                  nested: {x: null, ok: false}
                  text: "yes"
            apps:
              - clientId: 3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c
                redirectUris: [http://localhost]
                apiPermissions:
                  https://graph.microsoft.us: [User.Read]
        """
        let fromJSON = try ConfigurationLoader.parse(text: json, fileName: "c.json", baseDirectory: ".")
        let fromYAML = try ConfigurationLoader.parse(text: yaml, fileName: "c.yaml", baseDirectory: ".")
        #expect(fromJSON == fromYAML)
        #expect(fromJSON.tokens.lifetime == 600)
        #expect(fromJSON.tokens.refreshLifetime == 86400)
        #expect(fromJSON.tenants[0].id == "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11")
        #expect(fromJSON.tenants[0].apps[0].type == .public)
        let claims = fromJSON.tenants[0].users[0].claims
        #expect(claims == ["level": 3, "ratio": 0.5, "tags": ["a", "b"], "nested": ["x": nil, "ok": false], "text": "yes"])
        #expect(claims.keys == ["level", "ratio", "tags", "nested", "text"])
    }

    @Test("JSON problems carry their line too")
    func jsonProblems() {
        let json = """
        {
          "tenants": [
            {"id": "not-a-guid"}
          ]
        }
        """
        #expect(ConfigurationFixtures.problems(json, file: "c.json") == ["c.json:3: tenants[0].id: must be a GUID"])
    }

    @Test("an empty file, or one with only comments, is a configuration without tenants")
    func emptyFile() throws {
        for text in ["", "\n\n", "# nothing here yet\n", "---\n", "~\n"] {
            let configuration = try ConfigurationLoader.parse(text: text, fileName: "empty.yaml", baseDirectory: ".")
            #expect(configuration == IdentityProviderConfiguration())
        }
        let directory = try TemporaryDirectory()
        let path = try directory.write("empty.yaml", "")
        #expect(try ConfigurationLoader.load(paths: [path]) == IdentityProviderConfiguration())
    }

    @Test("certificates are read relative to the configuration file")
    func certificatesRelativeToFile() throws {
        let directory = try TemporaryDirectory()
        try directory.write("certs/daemon.pem", ConfigurationFixtures.certificatePEM)
        let path = try directory.write("conf/../daemon.yaml", """
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            apps:
              - clientId: 9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d
                certificates: [certs/daemon.pem]
        """)
        let configuration = try ConfigurationLoader.load(paths: [path])
        let app = configuration.tenants[0].apps[0]
        #expect(app.certificates == [ClientCertificate(source: "certs/daemon.pem", pem: ConfigurationFixtures.certificatePEM)])
        #expect(app.type == .confidential)

        let parsed = try ConfigurationLoader.parse(text: try String(contentsOfFile: path, encoding: .utf8),
                                                   fileName: "daemon.yaml", baseDirectory: directory.path)
        #expect(parsed == configuration)
    }

    @Test("a certificate file whose PEM block is not an X.509 certificate is a problem on its line")
    func unreadableCertificate() throws {
        let directory = try TemporaryDirectory()
        try directory.write("broken.pem", "-----BEGIN CERTIFICATE-----\nMIIBbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n")
        let path = try directory.write("app.yaml", """
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            apps:
              - clientId: 9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d
                certificates: [broken.pem]
        """)
        let problems = ConfigurationFixtures.loadProblems([path])
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("\(path):5: tenants[0].apps[0].certificates[0]: certificate 'broken.pem' is not a readable X.509 certificate") == true, "\(problems)")
    }

    @Test("a certificate that is missing or not a PEM certificate is a problem on its line")
    func certificateProblems() throws {
        let directory = try TemporaryDirectory()
        try directory.write("certs/key.pem", "-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n")
        try directory.write("certs/binary.pem", Data([0xFF, 0xFE, 0x00]))
        let path = try directory.write("app.yaml", """
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            apps:
              - clientId: 9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d
                certificates:
                  - certs/missing.pem
                  - certs/key.pem
                  - certs/binary.pem
                  - certs
        """)
        #expect(ConfigurationFixtures.loadProblems([path]) == [
            "\(path):6: tenants[0].apps[0].certificates[0]: certificate 'certs/missing.pem': no such file",
            "\(path):7: tenants[0].apps[0].certificates[1]: certificate 'certs/key.pem' is not a PEM certificate",
            "\(path):8: tenants[0].apps[0].certificates[2]: certificate 'certs/binary.pem' is not a PEM text file",
            "\(path):9: tenants[0].apps[0].certificates[3]: certificate 'certs': is a directory, not a file",
        ])
    }

    @Test("a file that cannot be read is a problem of the whole file, and the other files are still checked")
    func unreadableFile() throws {
        let directory = try TemporaryDirectory()
        let good = try directory.write("good.yaml", "tenants:\n  - id: nope\n")
        let missing = directory.path + "/missing.yaml"
        #expect(ConfigurationFixtures.loadProblems([missing, good, directory.path]) == [
            "\(missing): cannot be read: no such file",
            "\(good):2: tenants[0].id: must be a GUID",
            "\(directory.path): cannot be read: is a directory, not a file",
        ])
    }

    @Test("a FIFO named as a certificate or a configuration file is a problem at once, never a wait for a writer")
    func fifo() throws {
        let directory = try TemporaryDirectory()
        let fifo = directory.path + "/cert.pem"
        #expect(mkfifo(fifo, 0o600) == 0)
        let path = try directory.write("app.yaml", """
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            apps:
              - clientId: 9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d
                certificates: [cert.pem]
        """)
        #expect(ConfigurationFixtures.loadProblems([path]) == [
            "\(path):5: tenants[0].apps[0].certificates[0]: certificate 'cert.pem': is not a regular file (a FIFO or socket)",
        ])
        #expect(ConfigurationFixtures.loadProblems([fifo]) == ["\(fifo): cannot be read: is not a regular file (a FIFO or socket)"])
    }
}
