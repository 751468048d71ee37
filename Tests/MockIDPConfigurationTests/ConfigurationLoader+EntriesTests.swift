import MockIDPConfiguration
import MockIDPCore
import Testing

/// Users and apps given at run time (control API bodies) decode and validate like configuration entries.
@Suite struct ConfigurationLoaderEntriesTests {
    static let contoso = "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11"

    func configuration() throws -> IdentityProviderConfiguration { try ConfigurationLoader.load(paths: []) }

    @Test("a JSON user decodes with the configuration's defaults (derived oid)")
    func user() throws {
        let user = try ConfigurationLoader.decodeUser(
            text: #"{"username": "Erin@contoso.onmicrosoft.com", "password": "pw", "roles": ["Admin"], "requireMfa": true}"#,
            fileName: "request body", tenantID: Self.contoso, joining: try configuration())
        #expect(user.objectID == User.derivedObjectID(tenantID: Self.contoso, username: "Erin@contoso.onmicrosoft.com"))
        #expect(user.requireMFA && user.roles == ["Admin"])
    }

    @Test("a typo, a wrong type and a missing key are each a problem with its path")
    func userProblems() throws {
        let configuration = try configuration()
        do throws(ConfigurationError) {
            _ = try ConfigurationLoader.decodeUser(text: #"{"username": "x@contoso.onmicrosoft.com", "pasword": "pw", "groups": "g"}"#,
                                                   fileName: "request body", tenantID: Self.contoso, joining: configuration)
            Issue.record("expected problems")
        } catch {
            let text = error.problems.map(\.description)
            #expect(text.contains { $0.contains("unknown key 'pasword'") }, "\(text)")
            #expect(text.contains { $0.contains("password") && $0.contains("missing") }, "\(text)")
            #expect(error.problems.contains { $0.path.hasPrefix("groups") }, "\(text)")
            #expect(error.problems.allSatisfy { $0.file == "request body" })
        }
    }

    @Test("validation runs with the rest of the configuration: an oid taken by another user is refused")
    func validatedWithTheRest() throws {
        let alice = "0c3e9d2a-5b7f-4e1a-9c8d-1f2e3d4c5b6a"
        #expect(throws: ConfigurationError.self) {
            _ = try ConfigurationLoader.decodeUser(text: #"{"username": "mallory@contoso.onmicrosoft.com", "password": "pw", "oid": "\#(alice)"}"#,
                                                   fileName: "request body", tenantID: Self.contoso, joining: try configuration())
        }
        // Replacing Alice herself keeps her oid legal.
        let replaced = try ConfigurationLoader.decodeUser(text: #"{"username": "ALICE@contoso.onmicrosoft.com", "password": "new", "oid": "\#(alice)"}"#,
                                                          fileName: "request body", tenantID: Self.contoso, joining: try configuration())
        #expect(replaced.password == "new")
    }

    @Test("an app decodes with its type inferred; an app permission to an unknown API is refused")
    func app() throws {
        let app = try ConfigurationLoader.decodeApp(text: #"{"clientId": "1e4b2c3d-5f6a-4b7c-8d9e-0f1a2b3c4d5e", "secret": "s"}"#,
                                                    fileName: "request body", baseDirectory: ".", tenantID: Self.contoso,
                                                    joining: try configuration())
        #expect(app.type == .confidential)
        #expect(throws: ConfigurationError.self) {
            _ = try ConfigurationLoader.decodeApp(text: #"{"clientId": "1e4b2c3d-5f6a-4b7c-8d9e-0f1a2b3c4d5e", "apiPermissions": {"api://nowhere": ["x"]}}"#,
                                                  fileName: "request body", baseDirectory: ".", tenantID: Self.contoso,
                                                  joining: try configuration())
        }
        #expect(throws: ConfigurationError.self) {
            _ = try ConfigurationLoader.decodeApp(text: "", fileName: "request body", baseDirectory: ".", tenantID: Self.contoso,
                                                  joining: try configuration())
        }
    }
}
