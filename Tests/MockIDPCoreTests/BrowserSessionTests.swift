import MockIDPCore
import Testing

/// Browser sessions live in their cookies, sealed: the server keeps nothing per browser, yet only cookies it made
/// open, a signed-out cookie stays dead, and a reset ends every session.
@Suite struct BrowserSessionTests {
    let provider = Fixtures.provider()
    let contoso = Fixtures.contoso
    let alice = Fixtures.alice
    let bob = Fixtures.bob

    func accounts(_ cookie: String?) -> [String] {
        provider.signIn.sessionAccounts(cookie, tenantSegment: Fixtures.contosoID, directory: provider.snapshot()).map(\.account.username)
    }

    @Test("a sign-in's cookie opens to its accounts, newest first, and keeps one session_state as accounts join")
    func cookieCarriesTheSession() {
        let empty = provider.sessions.forSignIn(nil)
        #expect(accounts(empty).isEmpty)
        let first = provider.sessions.add(SessionAccount(alice, of: contoso, authTime: Fixtures.now), to: empty)
        let second = provider.sessions.add(SessionAccount(bob, of: contoso, authTime: Fixtures.now), to: first)
        #expect(accounts(first) == [alice.username])
        #expect(accounts(second) == [bob.username, alice.username])
        #expect(provider.sessions.state(of: first) == provider.sessions.state(of: second))
        #expect(provider.sessions.state(of: first) != provider.sessions.state(of: provider.sessions.forSignIn(nil)))
        // A live session is joined as it is; the browser keeps its own cookie.
        #expect(provider.sessions.forSignIn(second) == second)
    }

    @Test("a planted, forged or altered cookie opens to nothing and is never adopted",
          arguments: ["planted-by-the-attacker", "", String(repeating: "A", count: 200), String(repeating: "x", count: 20_000)])
    func foreignCookiesAreRefused(_ cookie: String) {
        #expect(accounts(cookie).isEmpty)
        #expect(provider.sessions.forSignIn(cookie) != cookie)
    }

    @Test("a cookie changed by one character opens to nothing")
    func alteredCookieIsRefused() {
        let cookie = provider.sessions.add(SessionAccount(alice, of: contoso, authTime: Fixtures.now), to: provider.sessions.forSignIn(nil))
        var bytes = Array(cookie.utf8)
        bytes[bytes.count / 2] = bytes[bytes.count / 2] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let altered = String(decoding: bytes, as: UTF8.self)
        #expect(accounts(altered).isEmpty)
    }

    @Test("a session from another server (another key) does not open here")
    func otherServersCookiesAreRefused() {
        let other = Fixtures.provider()
        let cookie = other.sessions.add(SessionAccount(alice, of: contoso, authTime: Fixtures.now), to: other.sessions.forSignIn(nil))
        #expect(accounts(cookie).isEmpty)
    }

    @Test("logout ends the session for every copy of its cookie, and the inspector forgets it")
    func logoutEndsEveryCopy() {
        let cookie = provider.sessions.add(SessionAccount(alice, of: contoso, authTime: Fixtures.now), to: provider.sessions.forSignIn(nil))
        #expect(provider.sessions.live().count == 1)
        provider.sessions.end(cookie)
        #expect(accounts(cookie).isEmpty)
        #expect(provider.sessions.live().isEmpty)
        #expect(provider.sessions.forSignIn(cookie) != cookie)
    }

    @Test("a reset ends every session")
    func resetEndsSessions() {
        let cookie = provider.sessions.add(SessionAccount(alice, of: contoso, authTime: Fixtures.now), to: provider.sessions.forSignIn(nil))
        provider.reset()
        #expect(accounts(cookie).isEmpty)
        #expect(provider.sessions.live().isEmpty)
    }

    @Test("a session expires a day after its last sign-in")
    func sessionsExpire() {
        let clock = ProviderClock.fixed(Fixtures.now)
        let provider = Fixtures.provider(clock: clock)
        let cookie = provider.sessions.add(SessionAccount(alice, of: contoso, authTime: Fixtures.now), to: provider.sessions.forSignIn(nil))
        clock.advance(by: 86_399)
        #expect(provider.signIn.sessionAccounts(cookie, tenantSegment: Fixtures.contosoID, directory: provider.snapshot()).count == 1)
        clock.advance(by: 1)
        #expect(provider.signIn.sessionAccounts(cookie, tenantSegment: Fixtures.contosoID, directory: provider.snapshot()).isEmpty)
    }

    @Test("the server remembers only the most recent sessions, for the inspector; older cookies still work")
    func inspectorListIsBounded() {
        var cookies: [String] = []
        for _ in 0..<150 {
            cookies.append(provider.sessions.add(SessionAccount(alice, of: contoso, authTime: Fixtures.now), to: provider.sessions.forSignIn(nil)))
        }
        #expect(provider.sessions.live().count == 100)
        #expect(accounts(cookies[0]) == [alice.username])
    }
}
