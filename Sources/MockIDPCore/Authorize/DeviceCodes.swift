import Synchronization

/// The device code flows under way (RFC 8628), under their own lock: started at the device code endpoint,
/// approved or declined at `/devicelogin`, polled at the token endpoint until redeemed once.
package final class DeviceCodes: Sendable {
    private let store = Mutex(DeviceCodeStore())

    init() {}

    /// Keeps `record` under `deviceCode` (and its user code) until it expires.
    func insert(deviceCode: String, _ record: DeviceAuthorization, now: Int) {
        store.withLock { $0.insert(deviceCode: deviceCode, record, now: now) }
    }

    /// The flow waiting for `userCode` (as normalised), or nil when it is unknown, decided or expired.
    func pending(userCode: String, now: Int) -> DeviceAuthorization? {
        let record = store.withLock { s -> DeviceAuthorization? in s.deviceCode(forUserCode: userCode).flatMap { s[deviceCode: $0] } }
        guard let record, case .pending = record.status, record.expiresAt > now else { return nil }
        return record
    }

    /// The user at `/devicelogin` signed in (`approval` set) or declined (nil); a flow no longer pending is left as it is.
    func decide(userCode: String, approval: (userObjectID: String, username: String, tenantID: String)?) {
        store.withLock { s in
            guard let d = s.deviceCode(forUserCode: userCode), var r = s[deviceCode: d], case .pending = r.status else { return }
            r.status = approval.map { .approved(userObjectID: $0.userObjectID, username: $0.username, tenantID: $0.tenantID) } ?? .declined
            s[deviceCode: d] = r
        }
    }

    /// One poll of `deviceCode` by `clientID` at `now` (RFC 8628 §3.5): the approved flow, spent by this poll, or
    /// the error the client must see (pending, too fast, declined, expired, unknown or spent).
    func poll(_ deviceCode: String, clientID: String, now: Int) throws(OAuthError) -> DeviceAuthorization {
        try store.withLock { (s: inout DeviceCodeStore) throws(OAuthError) -> DeviceAuthorization in
            guard var r = s[deviceCode: deviceCode], r.clientID == clientID.lowercased() else { throw .badVerificationCode() }
            let previous = r.lastPoll
            r.lastPoll = now
            s[deviceCode: deviceCode] = r
            guard now < r.expiresAt else { throw .deviceCodeExpired() }
            switch r.status {
            case .pending:
                // Polling twice within a second is too fast even for MSAL's rounding of the interval.
                if let previous, now - previous < 1 { throw .slowDown() }
                throw .authorizationPending()
            case .declined: throw .deviceAuthorizationDeclined()
            case .redeemed: throw .badVerificationCode()
            case .approved:
                // Spent: only what a later poll reads is kept until it expires (the grant goes with the user's ids).
                var spent = r
                spent.status = .redeemed
                spent.scope = ""
                spent.resource = nil
                s[deviceCode: deviceCode] = spent
                return r
            }
        }
    }

    /// How many flows are kept, expired ones not yet swept out included.
    var count: Int { store.withLock { $0.count } }

    /// The bytes of client text the kept flows hold (`Expiring.keptBytes`).
    var keptBytes: Int { store.withLock { $0.keptBytes } }

    /// Forgets every flow.
    func removeAll() { store.withLock { $0.removeAll() } }
}
