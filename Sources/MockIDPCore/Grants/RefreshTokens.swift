import Synchronization

/// The refresh tokens' sealing key, under its own lock: tokens carry their grant sealed (`RefreshTokenSealer`), so
/// nothing is kept per token; a new key ends every token issued before.
final class RefreshTokens: Sendable {
    private let sealer = Mutex(RefreshTokenSealer())

    /// The token for `grant`.
    func seal(_ grant: RefreshGrant) -> String { sealer.withLock { $0 }.token(for: grant) }

    /// The grant sealed in `token`, or nil when this key did not seal it.
    func open(_ token: String) -> RefreshGrant? { sealer.withLock { $0 }.grant(in: token) }

    /// A new key: every refresh token issued so far is dead.
    func removeAll() { sealer.withLock { $0 = RefreshTokenSealer() } }
}
