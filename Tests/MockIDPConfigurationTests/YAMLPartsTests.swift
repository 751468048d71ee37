import Foundation
import MockIDPConfiguration
import Testing

/// A large `tenants:` list is composed in parts on several cores: the tree must be the one a compose of the whole
/// text gives, line numbers included, or the text must not be cut at all.
@Suite struct YAMLPartsTests {
    /// One tenant in the many shapes a list item can take: nested lists and mappings, flow collections, block and
    /// folded scalars, plain and quoted scalars over several lines, comments at any indentation, blank lines.
    private static func tenant(_ number: Int) -> String {
        let id = String(number, radix: 10).leftPadded(to: 12)
        return [
            "  - id: 00000000-0000-4000-8000-\(id)",
            "    domains: [tenant\(number).onmicrosoft.com, \"t\(number).example\"]",
            "# a comment at the first column, inside the list",
            "    name: Tenant \(number)",
            "      continued on the next line",
            "    users:",
            "      - username: user\(number)@example.com",
            "        password: 'quoted",
            "          over two lines'",
            "",
            "      - {username: other\(number)@example.com, password: \"p\\\"w\"}",
            "    apps:",
            "      - clientId: 00000000-0000-4000-9000-\(id)",
            "        description: |",
            "          A block scalar",
            "            with a deeper line",
            "",
            "          and a blank one",
            "        note: >-",
            "          folded",
            "          text",
            "        redirectUris:",
            "        - http://localhost:\(number)/",
            "        -   \"https://app\(number).example/cb\"   # a comment after a value",
            "      - ~",
            "  -",
            "    id: 11111111-0000-4000-8000-\(id)",
            "  - just a scalar item",
            "  - - a nested list item",
            "    - another",
            "   ",
        ].joined(separator: "\n") + "\n"
    }

    private static func document(tenants: Int, trailer: String = "hosts: [a.example]\ntrustedIssuers:\n  - issuer: https://x.example\n") -> String {
        var text = "# header\ntokens:\n  lifetime: 60\nempty:\ntenants:   # the list\n\n"
        for number in 0..<tenants { text += tenant(number) }
        return text + trailer
    }

    @Test("a list cut into 2, 3 or 7 parts composes to the tree of the whole text", arguments: [2, 3, 7])
    func partsMatchWhole(parts: Int) throws {
        for trailer in ["hosts: [a.example]\ntrustedIssuers:\n  - issuer: https://x.example\n", "", "...\n", "# only a comment\n"] {
            let text = Self.document(tenants: 40, trailer: trailer)
            let whole = try #require(YAMLTreeInspection.composedWhole(text))
            let inParts = try #require(YAMLTreeInspection.composedInParts(text, parts: parts))
            #expect(inParts == whole)
        }
    }

    @Test("texts whose lines do not show a safe cut are composed whole")
    func notCut() {
        let item = "  - id: 1\n    name: x\n"
        let list = String(repeating: item, count: 8)
        let texts = [
            // A list at the key's own indentation.
            "tenants:\n" + String(repeating: "- id: 1\n", count: 8),
            // Line breaks libyaml counts other than \n.
            ("tenants:\n" + list).replacingNewlines(with: "\r\n"),
            "tenants:\n" + list + "  - name: \"a\u{2028}b\"\n",
            // A tab before an item's content.
            "tenants:\n" + list + "\t- id: 2\n",
            // Something else at the items' indentation, or between it and the first column.
            "tenants:\n" + list + "  name: x\n",
            "tenants:\n" + list + " hosts: []\n",
            // The list's key with a value on its line, or not at the first column.
            "tenants: &all\n" + list,
            "root:\n  tenants:\n" + list.indented(),
            // A root mapping in flow style.
            "{hosts: [],\ntenants:\n" + list + "}\n",
            // The list followed by a line that starts another at the first column.
            "tenants:\n" + list + "- id: 2\n",
        ]
        for text in texts {
            #expect(YAMLTreeInspection.composedInParts(text, parts: 2) == nil, "\(text)")
        }
    }

    @Test("a part that fails alone (an open quote at the cut, an anchor) makes the whole text composed whole")
    func failingPart() {
        // The second `  - ` line is inside a quoted scalar: the only cut falls there.
        let quoted = "tenants:\n  - name: \"a\n  - b\"\n"
        #expect(YAMLTreeInspection.composedWhole(quoted) != nil)
        #expect(YAMLTreeInspection.composedInParts(quoted, parts: 2) == nil)
        let flow = "tenants:\n  - [a,\n  - b]\n"
        #expect(YAMLTreeInspection.composedInParts(flow, parts: 2) == nil)
        let anchored = "tenants:\n  - &a x\n  - *a\n"
        #expect(YAMLTreeInspection.composedWhole(anchored) != nil)
        #expect(YAMLTreeInspection.composedInParts(anchored, parts: 2) == nil)
        // A key spelled twice in one item is refused in parts as it is whole.
        let duplicate = "tenants:\n  - a: 1\n    a: 2\n  - b: 1\n"
        #expect(YAMLTreeInspection.composedWhole(duplicate) == nil)
        #expect(YAMLTreeInspection.composedInParts(duplicate, parts: 2) == nil)
    }

    @Test("wherever the cuts fall, the parts compose to the whole text's tree or the text is composed whole")
    func everyCut() {
        // Items of varied sizes move the cuts (equal shares of bytes) over every kind of line.
        var text = "tenants:\n"
        for number in 0..<12 {
            text += "  - name: \"q\(number)\n  - still quoted\"\n" + (0..<number % 4).map { "    k\($0): v\n" }.joined()
            text += number % 3 == 0 ? "  - |\n    block\n  # comment\n" : "  - plain\n    continued\n"
        }
        text += "hosts: []\n"
        let whole = YAMLTreeInspection.composedWhole(text)
        #expect(whole != nil)
        var cut = 0, notCut = 0
        for parts in 2...12 {
            let inParts = YAMLTreeInspection.composedInParts(text, parts: parts)
            #expect(inParts == nil || inParts == whole, "\(parts) parts")
            if inParts == nil { notCut += 1 } else { cut += 1 }
        }
        // Some cuts fall inside the quoted scalars, some only between items.
        #expect(cut > 0 && notCut > 0)
    }

    @Test("a large configuration loads the same whether its list is cut or not")
    func largeConfigurationLoads() throws {
        // Over `minimumBytesForParts`, so that `parse` composes in parts.
        var text = "tenants:\n"
        var number = 0
        while text.utf8.count < 1_100_000 {
            text += """
                  - id: 00000000-0000-4000-8000-\(String(number, radix: 10).leftPadded(to: 12))
                    name: Tenant \(number)
                    users:
                      - username: user@t\(number).example
                        password: pw
                    apps:
                      - clientId: 00000000-0000-4000-9000-\(String(number, radix: 10).leftPadded(to: 12))
                        redirectUris: [http://localhost]

                """
            number += 1
        }
        text += "hosts: [a.example]\n"
        let configuration = try ConfigurationLoader.parse(text: text, fileName: "t.yaml", baseDirectory: ".")
        #expect(configuration.tenants.count == number)
        #expect(configuration.tenants.last?.name == "Tenant \(number - 1)")
        #expect(configuration.hosts == ["a.example"])
        // A problem in the last tenant names its line in the whole text.
        let broken = text.replacingOccurrences(of: "name: Tenant \(number - 1)\n", with: "name: Tenant\n    nmae: typo\n")
        let lines = broken.split(separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(lines.firstIndex(of: "    nmae: typo")) + 1
        #expect(ConfigurationFixtures.problems(broken) == ["test.yaml:\(line): tenants[\(number - 1)]: unknown key 'nmae'; did you mean 'name'?"])
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
    func replacingNewlines(with lineBreak: String) -> String { split(separator: "\n", omittingEmptySubsequences: false).joined(separator: lineBreak) }
    func indented() -> String { split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") + "\n" }
}
