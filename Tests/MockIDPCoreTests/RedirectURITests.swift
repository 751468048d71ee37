import MockIDPCore
import Testing

/// Entra's redirect-URI matching, and the URIs it never matches.
@Suite struct RedirectURITests {
    @Test("scripting and local schemes are recognised as a browser reads them",
          arguments: ["javascript:alert(1)", "JAVASCRIPT:alert(1)", " javascript:alert(1)", "java\tscript:alert(1)",
                      "java\nscript:alert(1)", "\u{1}javascript:x", "data:text/html,x", "vbscript:x", "file:///etc/passwd", "File://host/x"])
    func dangerousSchemes(uri: String) {
        #expect(RedirectURI.hasDangerousScheme(uri))
        #expect(RedirectURI.match(uri, registered: [uri]) == nil)
        #expect(RedirectURI.formActionSource(uri) == nil)
    }

    @Test("ordinary redirect URIs are not dangerous",
          arguments: ["https://app.contoso.com/cb", "http://localhost", "msauth.com.contoso.mobile://auth", "myapp:/callback",
                      "https://app.contoso.com/javascript:x", "urn:ietf:wg:oauth:2.0:oob"])
    func ordinarySchemes(uri: String) {
        #expect(!RedirectURI.hasDangerousScheme(uri))
        #expect(RedirectURI.match(uri, registered: [uri]) == uri)
    }

    @Test("form_post's form-action source is the redirect URI's origin")
    func formActionSource() {
        #expect(RedirectURI.formActionSource("https://app.contoso.com/signin-oidc?x=1") == "https://app.contoso.com")
        #expect(RedirectURI.formActionSource("https://localhost:5001/signin-oidc") == "https://localhost:5001")
        #expect(RedirectURI.formActionSource("http://[::1]:8400/") == "http://[::1]:8400")
        #expect(RedirectURI.formActionSource("msauth.com.contoso.mobile://auth") == "msauth.com.contoso.mobile:")
        #expect(RedirectURI.formActionSource("https://a.example;script-src *") == nil)
    }

    @Test("a loopback URI matches on any real port, but never with a fragment or an impossible port",
          arguments: ["http://localhost#frag", "http://localhost:8400/#x", "http://localhost:99999", "http://localhost:-1",
                      "http://localhost:0", "http://localhost:+80", "http://127.0.0.1:65536/", "http://[::1]:123456"])
    func loopbackImpossibleURIs(uri: String) {
        #expect(RedirectURI.match(uri, registered: ["http://localhost", "http://127.0.0.1", "http://[::1]"]) == nil)
    }

    @Test("loopback URIs on real ports still match the registered one")
    func loopbackPorts() {
        #expect(RedirectURI.match("http://localhost:8400", registered: ["http://localhost"]) == "http://localhost")
        #expect(RedirectURI.match("http://localhost:65535/", registered: ["http://localhost"]) == "http://localhost")
        #expect(RedirectURI.match("http://127.0.0.1:1/cb", registered: ["http://127.0.0.1/cb"]) == "http://127.0.0.1/cb")
        #expect(RedirectURI.match("http://[::1]:5000", registered: ["http://[::1]"]) == "http://[::1]")
    }
}
