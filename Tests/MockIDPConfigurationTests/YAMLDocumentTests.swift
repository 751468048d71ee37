import Foundation
import MockIDPConfiguration
import MockIDPCore
import Testing

/// Hostile and broken input: every case must end in problems (with lines), quickly, without a crash.
@Suite struct YAMLDocumentTests {
    private func problems(_ text: String) -> [String] { ConfigurationFixtures.problems(text) }

    /// A billion-laughs document: nine levels of nine aliases each, 9^9 strings when expanded.
    private static func laughs(under key: String) -> String {
        var text = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for (previous, name) in zip("abcdefgh", "bcdefghi") {
            text += "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ", ") + "]\n"
        }
        return text + key
    }

    @Test("broken YAML is a problem on the line libyaml names")
    func brokenYAML() {
        #expect(problems("tenants: [a, b\nhosts: x\n") == [
            "test.yaml:2: invalid YAML: did not find expected ',' or ']' (while parsing a flow sequence, line 1)",
        ])
        #expect(problems("tenants:\n  - id: x\n   name: y\n") == [
            "test.yaml:3: invalid YAML: did not find expected '-' indicator (while parsing a block collection, line 2)",
        ])
        #expect(problems("tenants:\n  - id: \"abc\n") == [
            "test.yaml:3: invalid YAML: found unexpected end of stream (while scanning a quoted scalar, line 2)",
        ])
        #expect(problems("tenants: *nothing\n") == [
            "test.yaml:1: invalid YAML: the alias '*nothing' names no anchor (&nothing) before it",
        ])
    }

    @Test("tabs used for indentation are a problem that says so")
    func tabs() {
        #expect(problems("tenants:\n\t- id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11\n") == [
            "test.yaml:2: invalid YAML: found character that cannot start any token; indent with spaces, not tabs",
        ])
        #expect(problems("tenants:\n  - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11\n\tname: y\n") == [
            "test.yaml:3: invalid YAML: found a tab character that violates indentation (while scanning a plain scalar, line 2); indent with spaces, not tabs",
        ])
    }

    @Test("a second document in one file is a problem")
    func secondDocument() {
        #expect(problems("tenants: []\n---\nhosts: []\n") == [
            "test.yaml:2: a configuration file holds one YAML document; this is a second one",
        ])
    }

    @Test("control characters and invalid UTF-8 are problems, not crashes")
    func invalidText() throws {
        #expect(problems("tenants: []\nhosts: [\u{0007}]\n") == ["test.yaml:2: invalid text: control characters are not allowed"])

        let directory = try TemporaryDirectory()
        var bytes = Data("tenants: []\nhosts: [caf".utf8)
        bytes.append(contentsOf: [0xC3, 0x28, 0x0A])  // a lead byte without its continuation
        let path = try directory.write("latin1.yaml", bytes)
        #expect(ConfigurationFixtures.loadProblems([path]) == ["\(path):2: is not valid UTF-8 text (byte 23)"])

        let utf16 = try directory.write("utf16.yaml", Data([0xFF, 0xFE]) + "tenants: []\n".data(using: .utf16LittleEndian)!)
        #expect(ConfigurationFixtures.loadProblems([utf16]) == ["\(utf16):1: is not valid UTF-8 text (byte 0)"])
        let nul = try directory.write("nul.yaml", Data("tenants: []\nhosts: [a\u{0}]\n".utf8))
        #expect(ConfigurationFixtures.loadProblems([nul]) == ["\(nul):2: invalid text: control characters are not allowed"])
    }

    @Test("a byte order mark at the start is allowed")
    func byteOrderMark() throws {
        let configuration = try ConfigurationLoader.parse(text: "\u{FEFF}hosts: [a.example]\n", fileName: "bom.yaml", baseDirectory: ".")
        #expect(configuration.hosts == ["a.example"])
    }

    @Test("a file over 8 MiB is refused unread")
    func hugeFile() throws {
        let directory = try TemporaryDirectory()
        let line = "# " + String(repeating: "x", count: 1021) + "\n"
        let text = String(repeating: line, count: 9 * 1024)
        #expect(text.utf8.count == 9 << 20)
        let path = try directory.write("huge.yaml", text)
        #expect(ConfigurationFixtures.loadProblems([path]) == ["\(path): is larger than 8 MiB, the most a configuration may hold"])
        #expect(problems(text) == ["test.yaml: is larger than 8 MiB, the most a configuration may hold"])
    }

    @Test("a billion-laughs document is refused quickly, at the alias that crosses the limit")
    func aliasBomb() {
        let start = ContinuousClock.now
        #expect(problems(Self.laughs(under: "tenants: []\n")) == [
            "test.yaml:7: g[0]: aliases expand the document to more than 1000000 values",
        ])
        let claims = Self.laughs(under: """
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            users:
              - username: a@contoso.com
                password: p
                claims: {bomb: *i}
        """)
        #expect(problems(claims) == ["test.yaml:7: g[0]: aliases expand the document to more than 1000000 values"])
        #expect(ContinuousClock.now - start < .seconds(10))
    }

    @Test("aliases within the limit are read in full")
    func aliasesWithinLimit() throws {
        let text = """
        hosts: &a [x.example, x.example, x.example, x.example, x.example, x.example, x.example, x.example, x.example]
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            users:
              - username: a@contoso.com
                password: p
                claims:
                  b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
                  c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
                  d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]
                  e: [*d, *d, *d, *d, *d, *d, *d, *d, *d]
        """
        let configuration = try ConfigurationLoader.parse(text: text, fileName: "test.yaml", baseDirectory: ".")
        func leaves(_ value: ClaimValue?) -> Int {
            guard let items = value?.arrayValue else { return value == nil ? 0 : 1 }
            return items.reduce(0) { $0 + leaves($1) }
        }
        let claims = configuration.tenants[0].users[0].claims
        #expect(leaves(claims["e"]) == 59049)
        #expect(claims["e"]?.arrayValue?.last?.arrayValue?.last?.arrayValue?.last?.arrayValue?.last?.arrayValue?.last == "x.example")
        #expect(configuration.hosts == ["x.example"])
    }

    @Test("an alias or a collection as a key is refused before it can be expanded")
    func aliasAsKey() {
        #expect(problems("hosts: &a [x.example]\n? *a\n: 1\n") == ["test.yaml:2: a key cannot be an alias"])
        #expect(problems("hosts: [x.example]\n? [a, b]\n: 1\n") == ["test.yaml:2: a key must be a name, not a list or a mapping"])
        let start = ContinuousClock.now
        // Yams hashes keys to find duplicates: composing these for real would take hours.
        #expect(problems(Self.laughs(under: "? *i\n: 1\n")) == [
            "test.yaml:7: g[0]: aliases expand the document to more than 1000000 values",
            "test.yaml:10: a key cannot be an alias",
        ])
        #expect(problems(Self.laughs(under: "? [*i, *i]\n: 1\n")) == [
            "test.yaml:7: g[0]: aliases expand the document to more than 1000000 values",
            "test.yaml:10: a key must be a name, not a list or a mapping",
        ])
        #expect(ContinuousClock.now - start < .seconds(10))
    }

    @Test("nesting 10,000 levels deep is a problem, not a stack overflow", arguments: [
        String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000),
        "{\"tenants\": " + String(repeating: "{\"a\": ", count: 10_000) + "1" + String(repeating: "}", count: 10_001),
        "tenants:\n" + String(repeating: "- ", count: 10_000) + "x\n",
    ])
    func deepNesting(text: String) {
        let found = problems(text)
        #expect(found.count == 1)
        #expect(found.first?.hasSuffix("invalid YAML: nested more than 1000 levels deep") == true)
    }

    @Test("a key repeated several times is reported at each repetition")
    func repeatedKeys() {
        #expect(problems("""
        hosts: []
        tenants: []
        hosts: [a.example]
        tenants: []
        hosts: [b.example]
        "hosts": [c.example]
        """) == [
            "test.yaml:3: duplicate key 'hosts'",
            "test.yaml:4: duplicate key 'tenants'",
            "test.yaml:5: duplicate key 'hosts'",
            "test.yaml:6: duplicate key 'hosts'",
        ])
    }

    @Test("a file of nothing but duplicate keys is bounded work")
    func duplicateKeyFlood() {
        // The CPU time of this thread, not the wall clock: a busy machine (or a sanitizer) stretches the one, not
        // the other. Quadratic work on 200,000 keys would take minutes of it; the linear reader takes well under one.
        func threadCPUSeconds() -> Double {
            var now = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
            return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
        }
        let start = threadCPUSeconds()
        let found = problems(String(repeating: "hosts: []\n", count: 200_000))
        #expect(found.count == 1001)
        #expect(found.first == "test.yaml:2: duplicate key 'hosts'")
        #expect(found.last == "test.yaml:1002: 198999 more problems not shown")
        #expect(threadCPUSeconds() - start < 20)
    }

    @Test("a flood of problems is cut at 1000 and the rest counted")
    func problemFlood() {
        let groups = Array(repeating: "x", count: 1500).joined(separator: ", ")
        let found = problems("""
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            users: [{username: a@contoso.com, password: p, groups: [\(groups)]}]
        """)
        #expect(found.count == 1001)
        #expect(found[999] == "test.yaml:3: tenants[0].users[0].groups[999]: must be a GUID (a group's object id)")
        #expect(found[1000] == "test.yaml:3: 500 more problems not shown")
    }

    @Test("random bytes never crash the reader", arguments: 0..<20)
    func randomBytes(seed: Int) {
        var generator = SplitMix64(seed: UInt64(seed))
        let alphabet = Array("ab:-[]{}&*!|>'\"%@`#,? \n\t\\0123456789~".unicodeScalars)
        var text = String.UnicodeScalarView()
        for _ in 0..<2000 { text.append(alphabet[Int(generator.next() % UInt64(alphabet.count))]) }
        _ = problems(String(text))
    }
}

/// A small deterministic generator, so that a failing case can be replayed.
private struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
