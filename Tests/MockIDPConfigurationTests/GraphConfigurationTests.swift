import Foundation
import MockIDPConfiguration
import MockIDPCore
import Testing

/// The keys of Graph's directory slice: `users[].photo`, `users[].profile`, `tenants[].groups` and
/// `apps[].groupMembershipClaims`.
@Suite struct GraphConfigurationTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        + [0, 0, 0, 64, 0, 0, 0, 64, 8, 2, 0, 0, 0]

    private func parse(_ text: String, baseDirectory: String = ".") throws -> IdentityProviderConfiguration {
        try ConfigurationLoader.parse(text: text, fileName: "test.yaml", baseDirectory: baseDirectory)
    }

    @Test("groups, profile and groupMembershipClaims decode into the model")
    func decodes() throws {
        let configuration = try parse("""
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            users:
              - {username: a@contoso.com, password: p, profile: {jobTitle: Buyer, businessPhones: ["+1 425"], accountEnabled: false}}
            apps:
              - {clientId: 3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c, groupMembershipClaims: securitygroup}
            groups:
              - {id: A8F2C1D4-7B3E-4F5A-9C6D-2E1F0A9B8C7D, displayName: Sales}
              - {id: b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e, securityEnabled: false, mail: news@contoso.com}
        """)
        let tenant = try #require(configuration.tenants.first)
        #expect(tenant.users[0].profile == ["jobTitle": "Buyer", "businessPhones": ["+1 425"], "accountEnabled": false])
        #expect(tenant.apps[0].groupMembershipClaims == .securityGroup)
        #expect(tenant.groups == [Group(id: "a8f2c1d4-7b3e-4f5a-9c6d-2e1f0a9b8c7d", displayName: "Sales"),
                                  Group(id: "b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e", securityEnabled: false, mail: "news@contoso.com")])
        #expect(tenant.groups[1].mailEnabled && !tenant.groups[0].mailEnabled)
    }

    @Test("each wrong value is a problem with its line and path")
    func problems() {
        #expect(ConfigurationFixtures.problems("""
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            users:
              - username: a@contoso.com
                password: p
                photo: nowhere.png
                profile: {shoeSize: 42, jobTitle: [a], displayName: X}
            apps:
              - {clientId: 3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c, groupMembershipClaims: Some}
            groups:
              - {id: a8f2c1d4-7b3e-4f5a-9c6d-2e1f0a9b8c7d}
              - {id: a8f2c1d4-7b3e-4f5a-9c6d-2e1f0a9b8c7d, securityEnabled: maybe}
              - {displayName: No id}
        """) == [
            "test.yaml:6: tenants[0].users[0].photo: photo 'nowhere.png': no such file",
            "test.yaml:7: tenants[0].users[0].profile.shoeSize: 'shoeSize' is not a Graph user property this server serves (one of \(GraphUserProperties.profile.map(\.name).joined(separator: ", ")))",
            "test.yaml:7: tenants[0].users[0].profile.jobTitle: 'jobTitle' must be a string",
            "test.yaml:7: tenants[0].users[0].profile.displayName: 'displayName' comes from the user's own keys (oid, name, username, email), not from profile",
            "test.yaml:9: tenants[0].apps[0].groupMembershipClaims: must be one of None, SecurityGroup, All, ApplicationGroup",
            "test.yaml:12: tenants[0].groups[1].securityEnabled: must be true or false",
            "test.yaml:12: tenants[0].groups[1].id: group a8f2c1d4-7b3e-4f5a-9c6d-2e1f0a9b8c7d is already declared at line 11",
            "test.yaml:13: tenants[0].groups[2]: missing required key 'id'",
        ])
    }

    @Test("a photo is read relative to the configuration file and checked by its magic bytes")
    func photo() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mockidp-photo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(Self.png).write(to: directory.appendingPathComponent("a.png"))
        try Data("GIF89a".utf8).write(to: directory.appendingPathComponent("b.gif"))
        let text = """
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            users:
              - {username: a@contoso.com, password: p, photo: a.png}
        """
        let user = try #require(try parse(text, baseDirectory: directory.path).tenants.first?.users.first)
        #expect(user.photo?.mediaType == "image/png" && user.photo?.width == 64 && user.photo?.bytes == Self.png)
        #expect(ConfigurationFixtures.problems(text.replacingOccurrences(of: "a.png", with: "b.gif"), baseDirectory: directory.path)
                == ["test.yaml:4: tenants[0].users[0].photo: photo 'b.gif' is neither a JPEG nor a PNG file"])
    }

    @Test("a later file replaces a group by id and adds new ones; a group is added at run time like a user")
    func mergesAndControl() throws {
        let first = try parse("""
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            groups: [{id: a8f2c1d4-7b3e-4f5a-9c6d-2e1f0a9b8c7d, displayName: Old}]
        """)
        let second = try parse("""
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            groups: [{id: a8f2c1d4-7b3e-4f5a-9c6d-2e1f0a9b8c7d, displayName: New}, {id: b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e}]
        """)
        let merged = ConfigurationLoader.merge([first, second])
        #expect(merged.tenants[0].groups.map(\.displayName) == ["New", nil])
        let group = try ConfigurationLoader.decodeGroup(text: #"{"id": "c1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e", "displayName": "Ops"}"#,
                                                        fileName: "request body", tenantID: merged.tenants[0].id, joining: merged)
        #expect(group == Group(id: "c1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e", displayName: "Ops"))
        #expect(throws: ConfigurationError.self) {
            _ = try ConfigurationLoader.decodeGroup(text: #"{"id": "x"}"#, fileName: "request body", tenantID: merged.tenants[0].id, joining: merged)
        }
    }
}
