import Foundation
import Testing

/// The README's examples are files the tests run (`Examples/` by `swift test`, `docker/` by Tests/docker): a block
/// marked `<!-- example: PATH -->` must be that file, byte for byte, and every such file must be in the README.
@Suite struct READMEExamplesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Each `<!-- example: PATH -->` marker of `markdown` with the fenced block right after it.
    static func markedBlocks(in markdown: String) -> [(path: String, code: String?)] {
        var found: [(String, String?)] = []
        let lines = markdown.components(separatedBy: "\n")
        var i = 0
        while i < lines.count {
            let line = lines[i].trimmingCharacters(in: .whitespaces)
            i += 1
            guard line.hasPrefix("<!-- example: "), line.hasSuffix(" -->") else { continue }
            let path = String(line.dropFirst("<!-- example: ".count).dropLast(" -->".count))
            guard i < lines.count, lines[i].hasPrefix("```") else { found.append((path, nil)); continue }
            var code: [String] = []
            i += 1
            while i < lines.count, lines[i] != "```" { code.append(lines[i]); i += 1 }
            i += 1
            found.append((path, code.joined(separator: "\n") + "\n"))
        }
        return found
    }

    /// README.md and every page of docs/, one after the other.
    static func documentation() throws -> String {
        let docs = Self.root.appendingPathComponent("docs")
        let pages = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }.sorted()
        return try (["README.md"] + pages.map { "docs/\($0)" })
            .map { try String(contentsOf: Self.root.appendingPathComponent($0), encoding: .utf8) }
            .joined(separator: "\n")
    }

    @Test("every example in the documentation (README.md, docs/) is a file the tests run, unchanged")
    func readmeMatchesExamples() throws {
        let blocks = Self.markedBlocks(in: try Self.documentation())
        let folder = "Tests/MockIDPTestingTests/Examples"
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent(folder).path)
            .filter { $0.hasSuffix(".swift") }.sorted()
        #expect(files.count >= 2)
        // The Docker examples, which Tests/docker runs in the Dockerfile's runtime stage.
        let required = files.map { "\(folder)/\($0)" } + ["docker/compose.yaml", "docker/github-actions.yml"]
        for path in required {
            #expect(blocks.contains { $0.path == path }, "the documentation has no `<!-- example: \(path) -->` block")
        }
        for block in blocks {
            let text = try String(contentsOf: Self.root.appendingPathComponent(block.path), encoding: .utf8)
            #expect(block.code != nil, "the marker for \(block.path) is not followed by a fenced block")
            #expect(block.code == text, "the documentation's copy of \(block.path) differs from the file: copy the file into it")
        }
    }

    @Test("the marker reader finds a block and notices a missing one")
    func reader() {
        let blocks = Self.markedBlocks(in: "x\n<!-- example: a.swift -->\n```swift\nlet a = 1\n\nlet b = 2\n```\n<!-- example: b.swift -->\ntext\n")
        #expect(blocks.count == 2)
        #expect(blocks[0].path == "a.swift" && blocks[0].code == "let a = 1\n\nlet b = 2\n")
        #expect(blocks[1].path == "b.swift" && blocks[1].code == nil)
    }
}
