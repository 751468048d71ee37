import MockIDPJOSE
import Synchronization

/// The native-authentication flows under way, under their own lock, by continuation token.
///
/// A continuation token is an opaque handle: 256 random bits (base64url), the key of the flow's state here. Not a
/// sealed value: the state holds what must never reach the client (the mailed code, the chosen password), each
/// step must be spendable once (a sealed value would need a record of spent ones anyway), and a handle says nothing
/// to anyone who reads it. Each step that moves the flow on spends the token it was given and issues a new one, so a
/// token stands for one flow kind, one client, one tenant and one step. A token lives `lifetime` seconds, ten
/// minutes: Entra's are "short-lived" and its password reset says `"expires_in": 600` (Microsoft Learn, "Native
/// authentication API reference", "Continuation token" and the password reset's `continue`).
package final class NativeAuthFlows: Sendable {
    private let store = Mutex(ExpiringStore<NativeAuthFlow>(capacity: 100_000))
    private let random: RandomSource

    /// How long a continuation token, and a mailed code, stays valid: ten minutes.
    static let lifetime = 600

    init(random: RandomSource) { self.random = random }

    /// Keeps `flow` (its `expiresAt` set to `now` plus the lifetime) under a new continuation token, and returns it.
    func start(_ flow: NativeAuthFlow, now: Int) -> String {
        let handle = Base64URL.encode(random.bytes(32))
        var flow = flow
        flow.expiresAt = now + Self.lifetime
        store.withLock { $0.insert(handle, flow, now: now) }
        return handle
    }

    /// The flow `token` stands for, when it may be presented by `clientID` of `tenantID` at a step of `kinds`
    /// whose stage `accepts`: else `invalid_grant` (unknown, spent, or another flow, client, tenant or step), or
    /// `expired_token`.
    func flow(_ token: String, kinds: Set<NativeAuthFlow.Kind>, clientID: String, tenantID: String, now: Int,
              accepts: (NativeAuthFlow.Stage) -> Bool) throws(OAuthError) -> NativeAuthFlow {
        guard let flow = store.withLock({ $0[token] }) else { throw .invalidContinuationToken("unknown or already used") }
        guard flow.expiresAt > now else { throw .expiredContinuationToken() }
        guard kinds.contains(flow.kind) else { throw .invalidContinuationToken("it belongs to a \(flow.kind.rawValue) flow") }
        guard flow.clientID == clientID.lowercased() else { throw .invalidContinuationToken("it was issued to another client") }
        guard flow.tenantID == tenantID else { throw .invalidContinuationToken("it was issued for another tenant") }
        guard accepts(flow.stage) else { throw .invalidContinuationToken("it is for another step of the flow") }
        return flow
    }

    /// Spends `token` and keeps `next` under a new token, which it returns; `invalid_grant` when `token` was spent
    /// meanwhile (two requests raced with one token).
    func advance(_ token: String, to next: NativeAuthFlow, now: Int) throws(OAuthError) -> String {
        let handle = Base64URL.encode(random.bytes(32))
        var next = next
        next.expiresAt = now + Self.lifetime
        let spent = store.withLock { s -> Bool in
            guard s[token] != nil else { return false }
            s[token] = nil
            s.insert(handle, next, now: now)
            return true
        }
        guard spent else { throw .invalidContinuationToken("already used") }
        return handle
    }

    /// Keeps `flow` under `token` as it is (a poll that changes nothing the client sees); false when it was spent.
    @discardableResult
    func keep(_ token: String, _ flow: NativeAuthFlow) -> Bool {
        store.withLock { s in
            guard s[token] != nil else { return false }
            s[token] = flow
            return true
        }
    }

    /// Spends `token` for good (tokens were issued); `invalid_grant` when it was spent meanwhile.
    func finish(_ token: String) throws(OAuthError) {
        let spent = store.withLock { s -> Bool in
            guard s[token] != nil else { return false }
            s[token] = nil
            return true
        }
        guard spent else { throw .invalidContinuationToken("already used") }
    }

    /// How many flows are kept, expired ones not yet swept out included.
    var count: Int { store.withLock { $0.count } }

    /// Forgets every flow.
    func removeAll() { store.withLock { $0.removeAll() } }
}
