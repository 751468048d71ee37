@testable import MockIDP
import Testing

@Suite struct HostHeaderTests {
    @Test("the host name of a Host header or URL: no scheme, port or path; IPv6 keeps its brackets",
          arguments: [
              ("localhost:8443", "localhost"), ("127.0.0.1", "127.0.0.1"), ("[::1]:8443", "[::1]"), ("[::1]", "[::1]"),
              ("https://login.microsoftonline.com", "login.microsoftonline.com"),
              ("https://mockidp:8443/base/path", "mockidp"), ("http://[::1]:8080/x", "[::1]"),
              ("contoso.b2clogin.com/tfp", "contoso.b2clogin.com"), ("[broken", "[broken"), ("", ""),
          ])
    func hostName(value: String, expected: String) {
        #expect(HostHeader.hostName(of: value) == expected)
    }

    @Test("Host headers are validated and lower-cased; anything else is refused",
          arguments: [
              ("LocalHost:8443", "localhost:8443"), ("[::1]:443", "[::1]:443"), ("login.microsoftonline.us", "login.microsoftonline.us"),
          ])
    func validHosts(value: String, expected: String) {
        #expect(HostHeader.validated(value) == expected)
    }

    @Test("malformed Host headers are refused", arguments: ["", "a b", "host:", "host:123456", "[zz]", "évil.com", "a/b"])
    func invalidHosts(value: String) {
        #expect(HostHeader.validated(value) == nil)
    }
}
