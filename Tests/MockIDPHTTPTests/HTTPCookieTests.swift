import MockIDPHTTP
import Testing

@Suite struct HTTPCookieTests {
    @Test("defaults give a session cookie for the whole site hidden from scripts")
    func defaults() {
        #expect(HTTPCookie(name: "sid", value: "abc").setCookieHeaderValue == "sid=abc; Path=/; HttpOnly")
    }

    @Test("every attribute is written in a fixed order")
    func allAttributes() {
        let cookie = HTTPCookie(
            name: "esctx", value: "v1", path: "/common", maxAge: 3600, httpOnly: true, secure: true,
            sameSite: HTTPCookie.SameSite.none
        )
        #expect(cookie.setCookieHeaderValue == "esctx=v1; Path=/common; Max-Age=3600; HttpOnly; Secure; SameSite=None")
        let lax = HTTPCookie(name: "a", value: "b", maxAge: 0, httpOnly: false, sameSite: .lax)
        #expect(lax.setCookieHeaderValue == "a=b; Path=/; Max-Age=0; SameSite=Lax")
        #expect(HTTPCookie(name: "a", value: "b", sameSite: .strict).setCookieHeaderValue.hasSuffix("; SameSite=Strict"))
    }

    @Test("a Cookie header parses into ordered pairs with duplicates, trimmed and unquoted")
    func parse() {
        let pairs = HTTPCookie.parse(cookieHeader: "a=1; b = 2 ;a=3;  c=\"quoted\"; flag; d=; =x; e=x=y")
        #expect(pairs.map { "\($0.name)=\($0.value)" } == ["a=1", "b=2", "a=3", "c=quoted", "d=", "e=x=y"])
        #expect(HTTPCookie.parse(cookieHeader: "").isEmpty)
    }

    @Test("pieces split at every ';' and '=' scalar, even where a combining mark makes one character of it and the next")
    func splitsOnScalars() {
        let pairs = HTTPCookie.parse(cookieHeader: "a=1;\u{0CF3}b=2; c\u{0301}=3;d=4")
        #expect(pairs.map(\.name) == ["a", "\u{0CF3}b", "c\u{0301}", "d"])
        #expect(pairs.map(\.value) == ["1", "2", "3", "4"])
    }
}
