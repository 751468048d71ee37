import Synchronization

/// A checked SAML sign-on waiting for the user (docs/saml.md, "Sign-on"): whom to answer, where and how, kept
/// server-side while the sign-in page is shown; the page carries only its key.
package struct SAMLSignOn: Sendable, Expiring {
    /// The tenant's ID.
    package var tenantID: String
    /// The SAML app's client ID.
    package var clientID: String
    /// The request's `ID`; nil for IdP-initiated sign-on.
    package var requestID: String?
    /// The request's `Issuer`: the Response's audience.
    package var audience: String
    /// Where the Response is posted.
    package var assertionConsumerServiceURL: String
    /// Sent back with the Response.
    package var relayState: String?
    /// `ForceAuthn`: the user types a password even with a session.
    package var forceAuthn: Bool
    /// `IsPassive`: no page may be shown.
    package var isPassive: Bool
    /// The `NameIDPolicy` format asked for.
    package var requestedNameIDFormat: String?
    /// Provider clock.
    package var expiresAt: Int
    /// How the sign-on is answered: a SAML Response, or a WS-Federation `wresult` (`relayState` then carries `wctx`).
    package var answer: SAMLAnswer = .samlResponse

    package var keptBytes: Int {
        audience.utf8.count + assertionConsumerServiceURL.utf8.count + (relayState?.utf8.count ?? 0) + (requestID?.utf8.count ?? 0)
            + (requestedNameIDFormat?.utf8.count ?? 0)
    }

    package static var keptBytesCapacity: Int { 64 * 1024 * 1024 }

    /// How long a sign-on waits for its user: as long as an authorize request's page may take.
    static let lifetime = 3600
}

/// How a sign-on is answered (docs/saml.md, "Sign-on" and "WS-Federation").
package enum SAMLAnswer: Sendable, Equatable {
    /// A SAML 2.0 Response posted as `SAMLResponse` and `RelayState`.
    case samlResponse
    /// A WS-Trust `RequestSecurityTokenResponse` posted as `wa`, `wresult` and `wctx`.
    case wsFederation
}

/// Sign-ons waiting for their user, under their own lock; each is taken once, when the Response is sent.
package final class PendingSAMLSignOns: Sendable {
    private let store: Mutex<ExpiringStore<SAMLSignOn>>

    init(capacity: Int) { store = Mutex(ExpiringStore(capacity: capacity)) }

    /// Keeps `signOn` under `key` until it expires.
    func keep(_ key: String, _ signOn: SAMLSignOn, now: Int) { store.withLock { $0.insert(key, signOn, now: now) } }

    /// The sign-on under `key`, while it lives.
    func find(_ key: String, now: Int) -> SAMLSignOn? {
        store.withLock { $0[key] }.flatMap { $0.expiresAt > now ? $0 : nil }
    }

    /// Forgets the sign-on under `key`.
    func remove(_ key: String) { store.withLock { $0[key] = nil } }

    /// Forgets every sign-on.
    func removeAll() { store.withLock { $0.removeAll() } }
}
