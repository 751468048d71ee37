import MockIDPConfiguration
import MockIDPCore
import Testing

/// `tenants[].regionSubScope`: Entra's values only, each for its own cloud's tenants; merged, printed and read back.
@Suite struct RegionSubScopeConfigurationTests {
    static let tenantID = "4712c55e-5996-4a23-b912-9014db0ff64d"

    static func yaml(cloud: String?, subScope: String) -> String {
        """
        tenants:
          - id: \(tenantID)
        \(cloud.map { "    cloud: \($0)\n" } ?? "")    regionSubScope: \(subScope)
        """
    }

    @Test("Entra's values, in any case, each with its cloud", arguments: [
        ("usgov", "DOD", RegionSubScope.dod), ("usgov", "dodcon", .dodcon), ("public", "GCC", .gcc), (nil, "gcc", .gcc),
    ] as [(String?, String, RegionSubScope)])
    func accepted(cloud: String?, text: String, expected: RegionSubScope) throws {
        let configuration = try ConfigurationLoader.parse(text: Self.yaml(cloud: cloud, subScope: text), fileName: "t.yaml", baseDirectory: ".")
        #expect(configuration.tenants.first?.regionSubScope == expected)
        #expect(expected.cloud == configuration.tenants.first?.cloud)
    }

    @Test("an unknown value is a problem that lists the known ones")
    func unknownValue() {
        #expect(ConfigurationFixtures.problems(Self.yaml(cloud: "usgov", subScope: "IL5"))
                == ["test.yaml:4: tenants[0].regionSubScope: must be one of GCC, DODCON, DOD"])
        #expect(ConfigurationFixtures.problems(Self.yaml(cloud: "usgov", subScope: "[DOD]")).count == 1)
    }

    @Test("a sub-scope of another cloud's tenants is a problem at its line")
    func wrongCloud() {
        #expect(ConfigurationFixtures.problems(Self.yaml(cloud: nil, subScope: "DOD"))
                == ["test.yaml:3: tenants[0].regionSubScope: DOD is for tenants with cloud: usgov (this tenant's cloud is public)"])
        #expect(ConfigurationFixtures.problems(Self.yaml(cloud: "china", subScope: "DODCON"))
                == ["test.yaml:4: tenants[0].regionSubScope: DODCON is for tenants with cloud: usgov (this tenant's cloud is china)"])
        #expect(ConfigurationFixtures.problems(Self.yaml(cloud: "usgov", subScope: "GCC"))
                == ["test.yaml:4: tenants[0].regionSubScope: GCC is for tenants with cloud: public (this tenant's cloud is usgov)"])
    }

    @Test("the rule holds on the merged files: one file's cloud, another's sub-scope")
    func acrossFiles() throws {
        let directory = try TemporaryDirectory()
        let cloud = try directory.write("a.yaml", "tenants:\n  - id: \(Self.tenantID)\n    cloud: usgov\n")
        let subScope = try directory.write("b.yaml", "tenants:\n  - id: \(Self.tenantID)\n    regionSubScope: DOD\n")
        let merged = try ConfigurationLoader.load(paths: [cloud, subScope])
        #expect(merged.tenants.count == 1 && merged.tenants[0].cloud == .usgov && merged.tenants[0].regionSubScope == .dod)
        let moved = try directory.write("c.yaml", "tenants:\n  - id: \(Self.tenantID)\n    cloud: public\n")
        #expect(ConfigurationFixtures.loadProblems([cloud, subScope, moved])
                == ["\(subScope):3: tenants[0].regionSubScope: DOD is for tenants with cloud: usgov (this tenant's cloud is public)"])
    }

    @Test("config print writes it after cloud, spelt as Entra sends it, and reads back equal")
    func printed() throws {
        let configuration = try ConfigurationLoader.parse(text: Self.yaml(cloud: "usgov", subScope: "dod"), fileName: "t.yaml", baseDirectory: ".")
        let text = ConfigurationWriter.yaml(configuration)
        let lines = text.split(separator: "\n").map(String.init)
        let cloud = try #require(lines.firstIndex(of: "    cloud: usgov"))
        #expect(lines[cloud + 1] == "    regionSubScope: DOD")
        #expect(try ConfigurationLoader.parse(text: text, fileName: "p.yaml", baseDirectory: ".") == configuration)
        // Without one, nothing is printed.
        let plain = ConfigurationWriter.yaml(try ConfigurationLoader.load(paths: []))
        #expect(!plain.contains("regionSubScope"))
    }
}
