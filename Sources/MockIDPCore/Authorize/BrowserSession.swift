import MockIDPJOSE

/// One account signed in within a browser session.
package struct SessionAccount: Sendable, Equatable {
    package var tenantID: String
    package var objectID: String
    package var username: String
    /// When the user last typed a password.
    package var authTime: Int

    /// `user` of `tenant`, who last typed a password at `authTime`.
    package init(_ user: User, of tenant: Tenant, authTime: Int) {
        self.init(tenantID: tenant.id, objectID: user.objectID, username: user.username, authTime: authTime)
    }

    init(tenantID: String, objectID: String, username: String, authTime: Int) {
        self.tenantID = tenantID
        self.objectID = objectID
        self.username = username
        self.authTime = authTime
    }
}

/// What the session cookie stands for: the accounts signed in in that browser (Entra's account picker lists them).
struct BrowserSession: Sendable, Equatable {
    /// Stays the same for the session's whole life, whatever accounts join it (`session_state`, the `sid` claim).
    var id: String
    /// Most recent sign-in first.
    var accounts: [SessionAccount]
    var expiresAt: Int

    /// Entra's session cookies last the browser session; ours expire after a day of the provider's clock.
    static let lifetime = 86400
    /// The accounts one browser keeps (Entra's account picker shows a handful); the oldest sign-in goes first.
    static let maximumAccounts = 10

    /// `account` first in the session, renewing it for another lifetime.
    mutating func add(_ account: SessionAccount, now: Int) {
        accounts.removeAll { $0.tenantID == account.tenantID && $0.objectID == account.objectID }
        accounts.insert(account, at: 0)
        if accounts.count > Self.maximumAccounts { accounts.removeLast(accounts.count - Self.maximumAccounts) }
        expiresAt = now + Self.lifetime
    }
}

/// A session ID signed out before its cookie expired (logout): kept until then, so a copy of the cookie is refused.
private struct EndedSession: Expiring {
    var expiresAt: Int
    /// The session ID is the server's own, sealed in its cookie: no client text.
    var keptBytes: Int { 0 }
    static var keptBytesCapacity: Int { 0 }
}

/// Browser sessions that live in their cookies: the cookie's value is the session itself, sealed (AES-256-GCM) with
/// a key of this process, so the server keeps nothing per browser and a stream of new browsers (a test suite that
/// starts one per test) cannot grow its memory. Entra's session cookies (ESTSAUTH) are opaque to browsers too. Only
/// cookies this key sealed open, so a cookie planted by someone else is never adopted (session fixation, OWASP ASVS
/// 3.2.1). The key is new at every start and reset, so sessions end with the process and with a reset, as they did
/// when they were kept in a table. What the server still keeps is bounded: the sessions signed out (until their
/// cookies would have expired) and the most recent sessions, which only the inspector reads.
struct BrowserSessions: Sendable {
    private let key = SealingKey()
    private var ended = ExpiringStore<EndedSession>(capacity: 10_000)
    /// The sessions most recently signed into, newest first (the inspector's list), at most `recentCapacity`.
    private(set) var recent: [BrowserSession] = []
    static let recentCapacity = 100

    /// The session `cookie` holds, when this key sealed it, it has not expired and nobody signed it out.
    func open(_ cookie: String?, now: Int) -> BrowserSession? {
        // A cookie is at most a few hundred bytes; longer values are not worth decrypting.
        guard let cookie, cookie.utf8.count <= 8192, let sealed = Base64URL.decode(Substring(cookie)),
              let plain = key.open(sealed), let json = try? JSONValue.parse(plain),
              let id = json["i"]?.stringValue, let expiresAt = json["e"]?.intValue, expiresAt > now,
              ended[id] == nil, case .array(let rows)? = json["a"] else { return nil }
        let accounts = rows.compactMap { row -> SessionAccount? in
            guard let t = row["t"]?.stringValue, let o = row["o"]?.stringValue, let u = row["u"]?.stringValue,
                  let a = row["a"]?.intValue else { return nil }
            return SessionAccount(tenantID: t, objectID: o, username: u, authTime: a)
        }
        return BrowserSession(id: id, accounts: accounts, expiresAt: expiresAt)
    }

    /// The cookie value that stands for `session`.
    func cookie(for session: BrowserSession) -> String {
        let rows: [JSONValue] = session.accounts.map {
            ["t": .string($0.tenantID), "o": .string($0.objectID), "u": .string($0.username), "a": .int($0.authTime)]
        }
        let fields: JSONObject = ["i": .string(session.id), "e": .int(session.expiresAt), "a": .array(rows)]
        return Base64URL.encode(key.seal(JSONValue.object(fields).serialized()))
    }

    /// Notes `session` as the most recently signed into (for the inspector).
    mutating func signedIn(_ session: BrowserSession) {
        recent.removeAll { $0.id == session.id }
        recent.insert(session, at: 0)
        if recent.count > Self.recentCapacity { recent.removeLast(recent.count - Self.recentCapacity) }
    }

    /// Signs `session` out: its cookie, and every copy of it, opens no more.
    mutating func end(_ session: BrowserSession, now: Int) {
        ended.insert(session.id, EndedSession(expiresAt: session.expiresAt), now: now)
        recent.removeAll { $0.id == session.id }
    }
}
