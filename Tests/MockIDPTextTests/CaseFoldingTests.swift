import MockIDPText
import Testing

/// The ASCII shortcuts of name comparisons answer exactly what `lowercased()` and `==` answer, for any text.
@Suite struct CaseFoldingTests {
    /// ASCII pairs, and the characters where Unicode and a byte comparison part ways: the Kelvin sign lowers to
    /// `k`, `İ` to `i` and a combining dot, the Greek question mark equals `;`, and `é` has two spellings.
    static let texts = [
        "", "a", "A", "api://Contoso-API", "api://contoso-api", "API://CONTOSO-API", "api://contoso-ap", "api://contoso-apix",
        "https://graph.microsoft.com", "HTTPS://Graph.Microsoft.com/", "00000003-0000-0000-C000-000000000000",
        "00000003-0000-0000-c000-000000000000", "\u{212A}", "k", "K", "\u{212A}ey", "key", "KEY", "\u{130}d", "i\u{307}d",
        "id", "a;b", "a\u{37E}b", "A\u{37E}B", "caf\u{E9}", "cafe\u{301}", "CAF\u{C9}", "[", "{", "@", "`",
    ]

    @Test("lowercasedEquals, equalsIgnoringCase and lowercasedIfNeeded agree with lowercased() on every pair")
    func agreesWithLowercased() {
        for a in Self.texts {
            #expect(a.lowercasedIfNeeded() == a.lowercased(), "\(a.debugDescription)")
            for b in Self.texts {
                #expect(a.lowercasedEquals(b) == (a.lowercased() == b), "\(a.debugDescription) vs \(b.debugDescription)")
                #expect(a.equalsIgnoringCase(b) == (a.lowercased() == b.lowercased()), "\(a.debugDescription) vs \(b.debugDescription)")
            }
        }
        #expect("\u{212A}".equalsIgnoringCase("k") && !"\u{212A}".lowercasedEquals("K"))
        #expect("a\u{37E}b".lowercasedEquals("a;b"))
    }
}
