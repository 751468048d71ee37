/// One account signed in within a browser session.
package struct SessionAccount: Sendable, Equatable {
    package var tenantID: String
    package var objectID: String
    package var username: String
    /// When the user last typed a password.
    package var authTime: Int
}

/// What the session cookie stands for: the accounts signed in in that browser (Entra's account picker lists them).
struct BrowserSession: Sendable {
    var accounts: [SessionAccount]
    var expiresAt: Int
}

extension BrowserSession: Expiring {}

/// Browser sessions by ID.
typealias BrowserSessionStore = ExpiringStore<BrowserSession>

extension ExpiringStore where Value == BrowserSession {
    /// Entra's session cookies last the browser session; ours expire after a day of the provider's clock.
    static var sessionLifetime: Int { 86400 }

    func accounts(_ id: String, now: Int) -> [SessionAccount] {
        guard let s = self[id], s.expiresAt > now else { return [] }
        return s.accounts
    }

    /// Whether `id` names a session this store created and that has not expired.
    func holds(_ id: String, now: Int) -> Bool { self[id].map { $0.expiresAt > now } ?? false }

    /// Puts `account` first in the session (creating or renewing it).
    mutating func add(_ account: SessionAccount, to id: String, now: Int) {
        var s = self[id].flatMap { $0.expiresAt > now ? $0 : nil } ?? BrowserSession(accounts: [], expiresAt: now)
        s.accounts.removeAll { $0.tenantID == account.tenantID && $0.objectID == account.objectID }
        s.accounts.insert(account, at: 0)
        s.expiresAt = now + Self.sessionLifetime
        insert(id, s, now: now)
    }
}
