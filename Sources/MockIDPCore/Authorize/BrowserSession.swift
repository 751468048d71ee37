/// One account signed in within a browser session.
public struct SessionAccount: Sendable, Equatable {
    public var tenantID: String
    public var objectID: String
    public var username: String
    /// When the user last typed a password.
    public var authTime: Int
}

/// What the session cookie stands for: the accounts signed in in that browser (Entra's account picker lists them).
struct BrowserSession: Sendable {
    var accounts: [SessionAccount]
    var expiresAt: Int
}

/// Browser sessions by ID, bounded so a stream of new browsers cannot grow memory without end.
struct BrowserSessionStore: Sendable {
    private var sessions: [String: BrowserSession] = [:]
    static let capacity = 50_000
    /// Entra's session cookies last the browser session; ours expire after a day of the provider's clock.
    static let lifetime = 86400

    func accounts(_ id: String, now: Int) -> [SessionAccount] {
        guard let s = sessions[id], s.expiresAt > now else { return [] }
        return s.accounts
    }

    mutating func add(_ account: SessionAccount, to id: String, now: Int) {
        if sessions.count >= Self.capacity { sessions = sessions.filter { $0.value.expiresAt > now } }
        if sessions.count >= Self.capacity { sessions.removeAll() }
        var s = sessions[id].flatMap { $0.expiresAt > now ? $0 : nil } ?? BrowserSession(accounts: [], expiresAt: now)
        s.accounts.removeAll { $0.tenantID == account.tenantID && $0.objectID == account.objectID }
        s.accounts.insert(account, at: 0)
        s.expiresAt = now + Self.lifetime
        sessions[id] = s
    }

    mutating func remove(_ id: String) { sessions[id] = nil }
    mutating func removeAll() { sessions = [:] }
}
