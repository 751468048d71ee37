import MockIDPConfiguration
import MockIDPCore
import Testing

/// `tenants[].managedIdentities`: decoding, derived ids, the server-wide rules, printing, and the control API's body.
@Suite struct ManagedIdentityConfigurationTests {
    static let contoso = "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11"
    static let fabrikam = "2b7e151d-aed2-4a6b-9c1f-3d4e5f6a7b8c"
    static let worker = "7d3c9a10-2b4e-4f61-8a7d-0c5e6f7a8b9c"
    static let other = "2d0f6b0e-8a7c-4b3e-9f1d-5c6a7b8e9f01"

    static func yaml(_ contosoIdentities: String, fabrikamIdentities: String = "") -> String {
        """
        tenants:
          - id: \(contoso)
            managedIdentities:
        \(contosoIdentities)
          - id: \(fabrikam)
        \(fabrikamIdentities.isEmpty ? "" : "    managedIdentities:\n" + fabrikamIdentities)
        """
    }

    @Test("an identity with only a client id gets derived object and resource ids, and prints back equal")
    func derived() throws {
        let configuration = try ConfigurationLoader.parse(text: Self.yaml("      - clientId: \(Self.worker.uppercased())"),
                                                          fileName: "t.yaml", baseDirectory: ".")
        let identity = try #require(configuration.tenants.first?.managedIdentities.first)
        #expect(identity.clientID == Self.worker && !identity.systemAssigned)
        #expect(identity.objectID == ManagedIdentity.derivedObjectID(tenantID: Self.contoso, clientID: Self.worker))
        #expect(identity.resourceID == ManagedIdentity.derivedResourceID(tenantID: Self.contoso, clientID: Self.worker, systemAssigned: false))
        let printed = ConfigurationWriter.yaml(configuration)
        #expect(printed.contains("managedIdentities:") && printed.contains("objectId: \(identity.objectID)"))
        #expect(try ConfigurationLoader.parse(text: printed, fileName: "p.yaml", baseDirectory: ".") == configuration)
    }

    @Test("bad values are problems with their line and path")
    func badValues() {
        let problems = ConfigurationFixtures.problems(Self.yaml("""
              - clientId: not-a-guid
              - clientId: \(Self.worker)
                objectId: 42
                resourceId: "subscriptions without a slash"
                systemAssigned: maybe
                color: blue
        """))
        #expect(problems.contains { $0.contains("managedIdentities[0].clientId") })
        #expect(problems.contains { $0.contains("managedIdentities[1].objectId") })
        #expect(problems.contains { $0.contains("managedIdentities[1].resourceId") && $0.contains("Azure resource ID") })
        #expect(problems.contains { $0.contains("managedIdentities[1].systemAssigned") })
        #expect(problems.contains { $0.contains("color") })
    }

    @Test("client, object and resource ids are unique and one identity at most is system-assigned, across tenants")
    func serverWideRules() {
        let problems = ConfigurationFixtures.problems(Self.yaml("""
              - clientId: \(Self.worker)
                systemAssigned: true
              - clientId: \(Self.other)
                objectId: 1b2c3d4e-5f60-4718-9a2b-3c4d5e6f7a8b
                resourceId: /subscriptions/s/x
        """, fabrikamIdentities: """
              - clientId: \(Self.worker)
              - clientId: 3e4f5a6b-7c8d-4e9f-a0b1-c2d3e4f5a6b7
                objectId: 1b2c3d4e-5f60-4718-9a2b-3c4d5e6f7a8b
                resourceId: /subscriptions/S/X
                systemAssigned: true
        """))
        #expect(problems.contains { $0.contains("managed identity \(Self.worker) is already declared") })
        #expect(problems.contains { $0.contains("is already the objectId of another managed identity") })
        #expect(problems.contains { $0.contains("is already the resourceId of another managed identity") })
        #expect(problems.contains { $0.contains("only one managed identity per server can be systemAssigned") })
        #expect(problems.count == 4, "\(problems)")
    }

    @Test("the control API's body replaces an identity by client id, validated with the configuration it joins")
    func merging() throws {
        let first = try ConfigurationLoader.parse(text: Self.yaml("      - clientId: \(Self.worker)"), fileName: "a.yaml", baseDirectory: ".")
        let identity = try ConfigurationLoader.decodeManagedIdentity(text: "{\"clientId\": \"\(Self.worker)\", \"systemAssigned\": true}",
                                                                    fileName: "body", tenantID: Self.contoso, joining: first)
        #expect(identity.systemAssigned && identity.clientID == Self.worker)
        #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader.decodeManagedIdentity(text: "{\"clientId\": \"\(Self.other)\", \"objectId\": \"x\"}", fileName: "body",
                                                          tenantID: Self.contoso, joining: first)
        }
    }

    @Test("the azure-sdk example holds a system-assigned and a user-assigned identity")
    func example() throws {
        let configuration = try ConfigurationLoader.load(paths: [ConfigurationFixtures.configDirectory + "/examples/azure-sdk.yaml"])
        let identities = configuration.tenants.flatMap(\.managedIdentities)
        #expect(identities.count == 2 && identities.filter(\.systemAssigned).count == 1)
    }
}
