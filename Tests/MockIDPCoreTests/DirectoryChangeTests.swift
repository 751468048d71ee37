import MockIDPCore
import Testing

@Suite struct DirectoryChangeTests {
    let provider = Fixtures.provider()

    func password(_ username: String, _ password: String) -> Result<TokenResponse, OAuthError> {
        Fixtures.token(provider, [("grant_type", "password"), ("client_id", Fixtures.mobile), ("username", username),
                                  ("password", password), ("scope", "openid")])
    }

    @Test("a user added at run time signs in, and is gone after restoring the loaded configuration")
    func addUserThenRestore() throws {
        #expect(password("dave@contoso.onmicrosoft.com", "dave-password").error?.aadsts == 50034)
        let dave = User(username: "dave@contoso.onmicrosoft.com", password: "dave-password",
                        objectID: User.derivedObjectID(tenantID: Fixtures.contosoID, username: "dave@contoso.onmicrosoft.com"))
        #expect(provider.served.upsertUser(dave, tenant: "contoso.onmicrosoft.com"))
        #expect(password("dave@contoso.onmicrosoft.com", "dave-password").body?["access_token"] != nil)
        provider.served.restoreLoadedConfiguration()
        #expect(password("dave@contoso.onmicrosoft.com", "dave-password").error?.aadsts == 50034)
    }

    @Test("changes made at once from many threads are all kept, and each bumps the generation once")
    func concurrentChangesAreNotLost() async {
        let before = provider.snapshot().generation
        let provider = self.provider
        await withTaskGroup(of: Void.self) { group in
            for i in 0..<64 {
                group.addTask {
                    let name = "user\(i)@contoso.onmicrosoft.com"
                    provider.served.upsertUser(User(username: name, password: "pw",
                                             objectID: User.derivedObjectID(tenantID: Fixtures.contosoID, username: name)),
                                        tenant: Fixtures.contosoID)
                }
            }
        }
        let directory = provider.snapshot()
        let names = Set(directory.configuration.tenants.first?.users.map(\.username) ?? [])
        #expect((0..<64).allSatisfy { names.contains("user\($0)@contoso.onmicrosoft.com") })
        #expect(directory.generation == before + 64)
    }

    @Test("replacing a user by username changes the password; an unknown tenant changes nothing")
    func replaceUser() throws {
        var alice = try #require(provider.snapshot().configuration.tenants.first?.users.first)
        alice.password = "new-password"
        #expect(provider.served.upsertUser(alice, tenant: Fixtures.contosoID.uppercased()))
        #expect(password("ALICE@contoso.onmicrosoft.com", "alice-password").error?.aadsts == 50126)
        #expect(password("alice@contoso.onmicrosoft.com", "new-password").body?["access_token"] != nil)
        #expect(provider.snapshot().configuration.tenants.first?.users.count == 2)
        #expect(!provider.served.upsertUser(alice, tenant: "nowhere.onmicrosoft.com"))
    }

    @Test("an app added at run time can get tokens")
    func addApp() throws {
        let id = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
        let app = Application(clientID: id, type: .confidential, secret: "s",
                              apiPermissions: [APIPermission(resource: "api://contoso-api", values: ["Reader"])])
        #expect(provider.served.upsertApp(app, tenant: Fixtures.contosoID))
        let result = Fixtures.token(provider, [("grant_type", "client_credentials"), ("client_id", id), ("client_secret", "s"),
                                               ("scope", "api://contoso-api/.default")])
        #expect(result.body?["access_token"] != nil)
    }
}
