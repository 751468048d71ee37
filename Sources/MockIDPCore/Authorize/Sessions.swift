import MockIDPJOSE
import Synchronization

/// The browser sessions, under their own lock: sealed into their cookies (`BrowserSessions`), with the sessions
/// signed out and the most recent ones kept for the inspector.
package final class Sessions: Sendable {
    private let table = Mutex(BrowserSessions())
    private let clock: ProviderClock
    private let random: RandomSource

    init(clock: ProviderClock, random: RandomSource) {
        self.clock = clock
        self.random = random
    }

    /// The session a successful sign-in joins, as its cookie value: `presented` (the browser's session cookie) only
    /// when this server sealed it and it is still alive, otherwise a new, empty session. A cookie made by someone else
    /// is never adopted, so an attacker who plants one cannot later use it to act as the user who signed in (session
    /// fixation, OWASP ASVS 3.2.1).
    package func forSignIn(_ presented: String?) -> String {
        let now = clock.now()
        let sessions = table.withLock { $0 }
        if let presented, sessions.open(presented, now: now) != nil { return presented }
        return sessions.cookie(for: BrowserSession(id: newID(), accounts: [], expiresAt: now + BrowserSession.lifetime))
    }

    /// Records that `account` signed in within the browser session `session` (a cookie value from `forSignIn`), and
    /// returns the session's new cookie value: the session lives in its cookie, so the browser must be given it.
    package func add(_ account: SessionAccount, to session: String) -> String {
        let now = clock.now()
        let id = newID()
        return table.withLock { sessions in
            var opened = sessions.open(session, now: now) ?? BrowserSession(id: id, accounts: [], expiresAt: now)
            opened.add(account, now: now)
            sessions.signedIn(opened)
            return sessions.cookie(for: opened)
        }
    }

    /// The session's `session_state` (and `sid`): one GUID for the session's whole life, whatever accounts join it.
    package func state(of session: String) -> String {
        let id = table.withLock { $0 }.open(session, now: clock.now())?.id ?? session
        return GUID.derived(from: "session:\(id)")
    }

    /// The accounts signed into the session `cookie` holds; none when it does not open.
    func accounts(_ cookie: String?) -> [SessionAccount] {
        guard let cookie else { return [] }
        return table.withLock { $0 }.open(cookie, now: clock.now())?.accounts ?? []
    }

    /// Signs every account of the session out; a copy of its cookie opens no more.
    package func end(_ cookie: String) {
        let now = clock.now()
        table.withLock { sessions in
            if let session = sessions.open(cookie, now: now) { sessions.end(session, now: now) }
        }
    }

    /// The accounts of the browser sessions most recently signed into that are still alive (sessions live in their
    /// cookies, so the server remembers only the last `BrowserSessions.recentCapacity`), most recent sign-in first.
    package func live() -> [[SessionAccount]] {
        let now = clock.now()
        return table.withLock { $0.recent }.filter { $0.expiresAt > now }.map(\.accounts).filter { !$0.isEmpty }
    }

    /// Ends every session: a new sealing key, so every session cookie issued so far is dead.
    func removeAll() { table.withLock { $0 = BrowserSessions() } }

    private func newID() -> String { Base64URL.encode(random.bytes(16)) }
}
