import Foundation
import Testing

/// The README's command-line reference against the real binary: every command it lists exists, takes every flag
/// the README gives it, and every environment variable it names is one the binary reads.
@Suite struct READMECommandLineTests {
    static let readme: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        // README.md and every page of docs/, one after the other.
        let pages = ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)) ?? [])
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
        return (["README.md"] + pages)
            .compactMap { try? String(contentsOf: root.appendingPathComponent($0), encoding: .utf8) }
            .joined(separator: "\n")
    }()

    /// The README's section under `heading`, up to the next `## `.
    static func section(_ heading: String) -> String {
        guard let start = readme.range(of: "\n## \(heading)\n") else { return "" }
        let rest = readme[start.upperBound...]
        let end = [rest.range(of: "\n## ")?.lowerBound, rest.range(of: "\n# ")?.lowerBound].compactMap { $0 }.min()
        return String(rest[..<(end ?? rest.endIndex)])
    }

    /// The synopsis block's commands: the words before the first option, and the `--flags` of the line and its
    /// continuation lines (a `#` comment ends a line).
    static func synopsis() -> [(command: [String], flags: [String])] {
        let text = section("Command line")
        guard let open = text.range(of: "```\n"), let close = text.range(of: "\n```", range: open.upperBound..<text.endIndex) else { return [] }
        var commands: [(command: [String], flags: [String])] = []
        for line in text[open.upperBound..<close.lowerBound].split(separator: "\n") {
            let words = (line.split(separator: "#").first ?? "").split(separator: " ").map(String.init)
            let flags = words.compactMap { word -> String? in
                let flag = word.trimmingCharacters(in: CharacterSet(charactersIn: "[]|.")).split(separator: "=").first.map(String.init) ?? ""
                return flag.hasPrefix("--") ? flag : nil
            }
            if words.first == "mockidp" {
                let command = Array(words.dropFirst().prefix { !$0.hasPrefix("-") && !$0.hasPrefix("[") && $0 == $0.lowercased() && $0.allSatisfy { $0.isLetter } })
                commands.append((command, flags))
            } else if !commands.isEmpty {
                commands[commands.count - 1].flags += flags
            }
        }
        return commands
    }

    @Test("every command and flag of the README's synopsis is in the binary's help")
    func synopsisMatchesHelp() throws {
        let commands = Self.synopsis()
        #expect(commands.count >= 4, "the README's Command line section lost its synopsis block")
        #expect(commands.contains { $0.command == ["serve"] && $0.flags.contains("--public-url") })
        for (command, flags) in commands {
            let help = try CommandLineTests.run(command + ["--help"])
            #expect(help.status == 0, "mockidp \(command.joined(separator: " ")) --help exits \(help.status)")
            for flag in flags where flag != "--help" {
                #expect(help.stdout.contains(flag), "mockidp \(command.joined(separator: " ")) has no \(flag)")
            }
        }
    }

    @Test("every MOCKIDP_ variable the README names is one serve reads")
    func environment() throws {
        let help = try CommandLineTests.run(["serve", "--help"]).stdout
        var names = Set<String>()
        var scanner = Self.readme[...]
        while let r = scanner.range(of: "MOCKIDP_") {
            let name = "MOCKIDP_" + scanner[r.upperBound...].prefix { $0.isUppercase || $0 == "_" }
            names.insert(name)
            scanner = scanner[r.upperBound...]
        }
        #expect(names.isSuperset(of: ["MOCKIDP_CONFIG", "MOCKIDP_HOST", "MOCKIDP_PORT", "MOCKIDP_STATE_DIR", "MOCKIDP_PUBLIC_URL"]))
        // MOCKIDP_BINARY, MOCKIDP_SCREENSHOTS, MOCKIDP_FUZZ_SECONDS, MOCKIDP_FUZZ_JOBS (scripts/fuzz) and
        // MOCKIDP_RELEASE_BINARY (Tests/docker) belong to the test suites, not to the server.
        let testVariables: Set = ["MOCKIDP_BINARY", "MOCKIDP_SCREENSHOTS", "MOCKIDP_FUZZ_SECONDS", "MOCKIDP_FUZZ_JOBS",
                                  "MOCKIDP_RELEASE_BINARY"]
        for name in names.subtracting(testVariables) {
            #expect(help.contains(name), "the README names \(name), which mockidp serve does not read")
        }
    }
}
