import Foundation
import MockIDPConfiguration
import MockIDPCore
import Testing

@Suite struct ConfigurationSchemaTests {
    private let schema = ConfigurationSchema.jsonSchema

    private func properties(_ object: ClaimValue?) -> [String] { object?["properties"]?.objectValue?.keys ?? [] }

    @Test("the JSON Schema lists each mapping's keys in print order, with a description each")
    func keysAndDescriptions() throws {
        #expect(schema["$schema"] == "https://json-schema.org/draft/2020-12/schema")
        #expect(schema["type"] == "object" && schema["additionalProperties"] == false)
        #expect(properties(.object(schema)) == ["tokens", "hosts", "tenants", "trustedIssuers"])
        let tenant = try #require(schema["properties"]?["tenants"]?["items"])
        #expect(properties(tenant) == ["id", "domains", "name", "cloud", "regionSubScope", "signIn", "b2c", "externalId", "users", "apps", "groups",
                                       "managedIdentities"])
        #expect(tenant["required"] == ["id"])
        let user = try #require(tenant["properties"]?["users"]?["items"])
        #expect(properties(user) == ["username", "password", "name", "oid", "email", "groups", "photo", "profile", "roles", "claims",
                                     "requireMfa", "homeTenant"])
        // A signIn: otp External ID tenant's users have no password: the validator, knowing the tenant, requires it elsewhere.
        #expect(user["required"] == ["username"])
        let app = try #require(tenant["properties"]?["apps"]?["items"])
        #expect(app["required"] == ["clientId"])
        #expect(properties(app).count == 23)
        #expect(properties(app["properties"]?["saml"]) == ["signing", "signingAlgorithm", "nameIdFormat", "nameIdSource", "logoutUrl",
                                                          "relayState", "requireSignedRequests", "wsfedTokenType", "attributes"])
        #expect(properties(app["properties"]?["optionalClaims"]) == ["idToken", "accessToken"])
        // idtyp concerns access tokens only: the ID token's list does not offer it.
        #expect(app["properties"]?["optionalClaims"]?["properties"]?["idToken"]?["items"]?["enum"]?.arrayValue?.contains("idtyp") == false)
        #expect(app["properties"]?["optionalClaims"]?["properties"]?["accessToken"]?["items"]?["enum"]?.arrayValue?.contains("idtyp") == true)
        #expect(properties(app["properties"]?["federatedCredentials"]?["items"]) == ["issuer", "subject", "audiences"])
        #expect(properties(schema["properties"]?["trustedIssuers"]?["items"]) == ["issuer", "jwks", "jwksUri"])
        let group = try #require(tenant["properties"]?["groups"]?["items"])
        #expect(properties(group) == ["id", "displayName", "securityEnabled", "mail"])
        #expect(group["required"] == ["id"])
        #expect(properties(tenant["properties"]?["b2c"]) == ["policies", "policyClaim"])
        #expect(properties(tenant["properties"]?["externalId"]) == ["subdomain", "customDomains", "signIn", "signUp", "attributes"])
        let identity = try #require(tenant["properties"]?["managedIdentities"]?["items"])
        #expect(properties(identity) == ["clientId", "objectId", "resourceId", "systemAssigned"])
        #expect(identity["required"] == ["clientId"])
        #expect(properties(tenant["properties"]?["signIn"]) == ["anyUser"])
        #expect(properties(schema["properties"]?["tokens"]) == ["lifetime", "refreshLifetime", "codeLifetime"])

        func descriptions(_ node: ClaimValue) -> [ClaimValue?] {
            guard let members = node["properties"]?.objectValue else { return [] }
            return members.flatMap { member in
                [member.value["description"]] + descriptions(member.value) + descriptions(member.value["items"] ?? .null)
            }
        }
        let all = descriptions(.object(schema))
        #expect(all.count == 4 + 3 + 12 + 1 + 2 + 5 + 12 + 23 + 2 + 4 + 3 + 3 + 4 + 9)
        #expect(all.allSatisfy { ($0?.stringValue?.count ?? 0) > 10 })
    }

    @Test("the JSON Schema says what each kind of value is")
    func kinds() throws {
        let tenant = try #require(schema["properties"]?["tenants"]?["items"]?["properties"])
        let app = try #require(tenant["apps"]?["items"]?["properties"])
        let user = try #require(tenant["users"]?["items"]?["properties"])
        #expect(tenant["id"] == ["type": "string", "format": "uuid", "pattern": FieldShape.guidPattern, "description": "The tenant ID."])
        #expect(tenant["domains"]?["items"]?["format"] == "hostname")
        #expect(tenant["cloud"]?["enum"] == .array(CloudName.allCases.map { .string($0.rawValue) }))
        #expect(tenant["regionSubScope"]?["enum"] == ["GCC", "DODCON", "DOD"])
        #expect(app["type"]?["enum"] == ["public", "spa", "confidential"])
        #expect(app["accessTokenVersion"]?["minimum"] == 1 && app["accessTokenVersion"]?["maximum"] == 2)
        #expect(app["redirectUris"]?["items"]?["format"] == "uri")
        #expect(app["apiPermissions"]?["additionalProperties"]?["type"] == "array")
        #expect(app["multiTenant"]?["type"] == "boolean")
        #expect(user["claims"]?["type"] == "object")
        let lifetime = try #require(schema["properties"]?["tokens"]?["properties"]?["lifetime"])
        #expect(lifetime["type"] == "integer" && lifetime["minimum"] == 60 && lifetime["maximum"] == 315_360_000)
    }

    @Test("a control-API body names each field by its configuration key, leaving out what is unset")
    func bodies() {
        var body = FieldBody()
        body.set(UserFields.username, "alice@contoso.com")
        body.set(UserFields.name, nil)
        body.set(UserFields.objectID, "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11")
        body.set(UserFields.roles, [])
        body.set(UserFields.requireMFA, false)
        body.set(AppFields.apiPermissions, [APIPermission(resource: "api://x", values: ["Read"])])
        body.set(AppFields.type, word: "spa")
        #expect(body.object == ["username": "alice@contoso.com", "oid": "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11",
                                "requireMfa": false, "apiPermissions": ["api://x": ["Read"]], "type": "spa"])
    }

    @Test("problems on one line come in the order the fields are read, foci before the flags printed above it")
    func readingOrder() {
        #expect(ConfigurationFixtures.problems("""
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            apps:
              - {clientId: 3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c, requirePkce: 1, foci: 2, name: [n], multiTenant: 3}
        """) == [
            "test.yaml:4: tenants[0].apps[0].name: must be a string",
            "test.yaml:4: tenants[0].apps[0].multiTenant: must be true or false",
            "test.yaml:4: tenants[0].apps[0].foci: must be true or false",
            "test.yaml:4: tenants[0].apps[0].requirePkce: must be true or false",
        ])
    }
}

@Suite struct ShippedSchemaTests {
    @Test("config/mockidp.schema.json is the schema the field tables generate")
    func shippedFileIsGenerated() throws {
        let path = ConfigurationFixtures.configDirectory + "/mockidp.schema.json"
        let shipped = try String(contentsOfFile: path, encoding: .utf8)
        #expect(shipped == ConfigurationSchema.jsonSchemaText,
                "config/mockidp.schema.json is out of date: run scripts/generate-schema and commit the file")
    }

    @Test("every shipped configuration names the schema by a path that resolves inside the repository")
    func examplesNameTheSchema() throws {
        let directory = ConfigurationFixtures.configDirectory
        let examples = try FileManager.default.contentsOfDirectory(atPath: directory + "/examples").filter { $0.hasSuffix(".yaml") }
        #expect(examples.count >= ConfigurationFixtures.exampleNames.count)
        let files = ["default.yaml"] + examples.sorted().map { "examples/" + $0 }
        for file in files {
            let text = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
            let first = text.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
            let prefix = "# yaml-language-server: $schema="
            #expect(first.hasPrefix(prefix), "\(file) must start with '\(prefix)…'")
            let relative = String(first.dropFirst(prefix.count))
            let folder = URL(fileURLWithPath: directory + "/" + file).deletingLastPathComponent()
            let resolved = folder.appendingPathComponent(relative).standardizedFileURL.path
            #expect(resolved == URL(fileURLWithPath: directory + "/mockidp.schema.json").standardizedFileURL.path,
                    "\(file): \(relative) must name config/mockidp.schema.json")
        }
    }
}

@Suite struct SignInFieldsTests {
    private let tenant = "tenants:\n  - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11\n    domains: [contoso.com]\n"

    @Test("signIn.anyUser is read, merged by a later file and printed only when on")
    func readMergedPrinted() throws {
        let on = try ConfigurationLoader.parse(text: tenant + "    signIn: {anyUser: true}\n", fileName: "a.yaml", baseDirectory: ".")
        #expect(on.tenants.first?.signIn.anyUser == true)
        #expect(ConfigurationWriter.yaml(on).contains("    signIn:\n      anyUser: true\n"))
        let off = try ConfigurationLoader.parse(text: tenant, fileName: "b.yaml", baseDirectory: ".")
        #expect(off.tenants.first?.signIn.anyUser == false)
        #expect(!ConfigurationWriter.yaml(off).contains("signIn"))
        let printed = try ConfigurationLoader.parse(text: ConfigurationWriter.yaml(on), fileName: "printed.yaml", baseDirectory: ".")
        #expect(printed == on)
    }

    @Test("signIn refuses unknown keys and values that are not true or false")
    func problems() {
        #expect(ConfigurationFixtures.problems(tenant + "    signIn: {anyUsers: true}\n")
            == ["test.yaml:4: tenants[0].signIn: unknown key 'anyUsers'; did you mean 'anyUser'?"])
        #expect(ConfigurationFixtures.problems(tenant + "    signIn: {anyUser: everyone}\n")
            == ["test.yaml:4: tenants[0].signIn.anyUser: must be true or false"])
        #expect(ConfigurationFixtures.problems(tenant + "    signIn: yes\n") == ["test.yaml:4: tenants[0].signIn: must be a mapping"])
    }
}
