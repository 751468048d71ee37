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
}
