@testable import MockIDPConfiguration
import Testing

@Suite struct URIReferenceTests {
    private func parts(_ text: String) -> (scheme: String, host: String?, hasFragment: Bool)? {
        URIReference(text).map { ($0.scheme, $0.host, $0.hasFragment) }
    }

    @Test("scheme and host are cut at RFC 3986's delimiters and lower-cased")
    func schemeAndHost() throws {
        #expect(try #require(parts("HTTPS://User:Pw@App.Contoso.COM:8443/cb?x=1#f")) == ("https", "app.contoso.com", true))
        #expect(try #require(parts("http://[::1]:5000/cb")) == ("http", "[::1]", false))
        #expect(try #require(parts("http://[::1")) == ("http", nil, false))
        #expect(try #require(parts("https:///no-host")) == ("https", "", false))
        #expect(try #require(parts("https://a@b@host.example?q")) == ("https", "host.example", false))
        #expect(try #require(parts("msauth.com.contoso.app://auth")) == ("msauth.com.contoso.app", "auth", false))
        #expect(try #require(parts("urn:ietf:wg")) == ("urn", nil, false))
        #expect(try #require(parts("myapp:/cb")) == ("myapp", nil, false))
        #expect(try #require(parts("api://Ünïcode-API/x")) == ("api", "ünïcode-api", false))
        // A delimiter followed by a combining mark still ends the host (a `Character` walk joined the two).
        #expect(try #require(parts("https://host/\u{301}path")) == ("https", "host", false))
    }

    @Test("not absolute URIs: no scheme, a bad scheme, nothing after the colon, spaces or control characters")
    func notAbsolute() {
        for text in ["", ":", ":x", "/relative", "contoso-api", "1app://x", "my_app://x", "https:", "https://a b",
                     "https://a\tb", "https://a\u{7F}", "https://a\u{1}", "https://a\u{3000}b", "https://a\u{A0}", "ü://x"] {
            #expect(URIReference(text) == nil, "\(text.debugDescription)")
        }
    }
}
