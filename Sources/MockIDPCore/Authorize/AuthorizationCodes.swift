import Synchronization

/// The authorization codes issued and not yet expired, under their own lock: issued by the authorize endpoint,
/// redeemed once at the token endpoint (a redeemed code is kept, spent, so a replay is told from a forgery).
package final class AuthorizationCodes: Sendable {
    private let store: Mutex<AuthorizationCodeStore>

    init(capacity: Int) { store = Mutex(AuthorizationCodeStore(capacity: capacity)) }

    /// Keeps `record` under `code` until it expires.
    func issue(_ code: String, _ record: AuthorizationCode, now: Int) {
        store.withLock { $0.insert(code, record, now: now) }
    }

    /// What `code` stands for, spent or not; nil when it was never issued or has been swept out.
    func record(_ code: String) -> AuthorizationCode? { store.withLock { $0[code] } }

    /// Spends the code; false when it already was spent (a concurrent or repeated redemption).
    func redeem(_ code: String) -> Bool { store.withLock { $0.markRedeemed(code) } }

    /// Forgets every code.
    func removeAll() { store.withLock { $0.removeAll() } }
}
