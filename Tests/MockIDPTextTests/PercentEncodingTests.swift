import MockIDPText
import Testing

@Suite struct PercentEncodingTests {
    @Test("unreserved characters are kept, every other byte is %XX in upper case, a space too")
    func component() {
        #expect(PercentEncoding.encode("a b+c/é") == "a%20b%2Bc%2F%C3%A9")
        #expect(PercentEncoding.encode("AZaz09-._~") == "AZaz09-._~")
        #expect(PercentEncoding.encode("") == "")
    }

    @Test("characters asked to be kept are kept, the rest encoded as before")
    func keeping() {
        #expect(PercentEncoding.encode("startswith(name,'A') $x&y", keeping: "$,()'") == "startswith(name,'A')%20$x%26y")
    }

    @Test("a form writes a space as a plus")
    func spaceAsPlus() {
        var out: [UInt8] = []
        PercentEncoding.append("openid profile+x".utf8, to: &out, spaceAsPlus: true)
        #expect(String(decoding: out, as: UTF8.self) == "openid+profile%2Bx")
    }
}
