@testable import MockIDPConfiguration
import MockIDPCore
import Testing

/// Configurations long enough to be read and checked on several cores (`Parallel`): the result, and every problem
/// with its place and order, must be what one pass over the file gives.
@Suite struct LargeConfigurationTests {
    @Test("Parallel.map covers the items once, in order, whatever the chunking")
    func parallelMapCoversInOrder() {
        for (count, minimumChunk) in [(0, 1), (1, 1), (7, 1), (10_000, 100), (10_000, 20_000), (257, 256)] {
            let parts = Parallel.map(count, minimumChunk: minimumChunk) { Array($0) }
            #expect(parts.flatMap { $0 } == Array(0..<count))
            #expect(parts.count <= max(1, Parallel.cores))
            #expect(parts.allSatisfy { $0.count >= min(count, minimumChunk) })
        }
    }

    /// `count` tenants of one user and one app each; `broken` tenants get a wrong key, an unknown app in API
    /// permissions and a user declared twice (a decoding problem and two validation problems each).
    static func tenants(_ count: Int, broken: Set<Int>) -> String {
        var text = "tenants:\n"
        for i in 0..<count {
            let id = "00000000-0000-4000-8000-\(String(format: "%012d", i))"
            text += "  - id: \(id)\n    name: Tenant \(i)\n"
            if broken.contains(i) { text += "    nmae: typo\n" }
            text += "    users:\n      - username: user@t\(i).example\n        password: p\(i)\n"
            if broken.contains(i) { text += "      - username: USER@t\(i).example\n        password: again\n" }
            text += "    apps:\n      - clientId: 10000000-0000-4000-8000-\(String(format: "%012d", i))\n        secret: s\(i)\n"
            if broken.contains(i) { text += "        apiPermissions:\n          api://nowhere-\(i): [Read]\n" }
        }
        return text
    }

    @Test("a long tenant list loads whole and in order")
    func longListLoads() throws {
        let count = 2_000
        let configuration = try ConfigurationLoader.parse(text: Self.tenants(count, broken: []), fileName: "large.yaml", baseDirectory: ".")
        #expect(configuration.tenants.count == count)
        #expect(configuration.tenants.map(\.name) == (0..<count).map { "Tenant \($0)" })
        #expect(configuration.tenants.allSatisfy { $0.users.count == 1 && $0.apps.count == 1 })
    }

    @Test("problems in every part of a long list come out as one pass finds them")
    func problemsAcrossChunks() {
        let count = 2_000
        let broken: [Int] = [0, 1, 999, 1_000, 1_001, 1_998, 1_999]
        let problems = ConfigurationFixtures.problems(Self.tenants(count, broken: Set(broken)), file: "large.yaml")
        // Three per broken tenant, ordered by line: the typo, the repeated user, the unknown API.
        #expect(problems.count == 3 * broken.count)
        let lines = problems.map { Int($0.split(separator: ":")[1])! }
        #expect(lines == lines.sorted())
        for (n, tenant) in broken.enumerated() {
            let own = problems[(3 * n)..<(3 * n + 3)]
            #expect(own.allSatisfy { $0.contains("tenants[\(tenant)]") }, "\(Array(own))")
            #expect(own.contains { $0.contains("unknown key 'nmae'") })
            #expect(own.contains { $0.contains("is already declared") })
            #expect(own.contains { $0.contains("api://nowhere-\(tenant)") })
        }
    }
}
