import MockIDPJOSE
import Synchronization

/// The e-mail one-time passcodes External ID's sign-in pages are waiting for, under their own lock: each is sent to
/// the outbox, kept under an unguessable handle the page carries, and expires after ten minutes; three wrong tries
/// or its use end it (Microsoft Learn, "Email one-time passcode authentication": a code is valid for ten minutes).
package final class EmailVerifications: Sendable {
    /// One code sent, and what it proves once entered.
    struct Verification: Expiring {
        var email: String
        var purpose: Outbox.Purpose
        var tenantID: String
        var clientID: String
        var code: String
        var expiresAt: Int
        /// Wrong codes entered so far.
        var failures = 0
        /// The right code was entered: the page's next step may use what it proves, once.
        var verified = false

        var keptBytes: Int { email.utf8.count }
        static var keptBytesCapacity: Int { 16 << 20 }
    }

    /// Why a code was not accepted.
    package enum Refusal: Error, Sendable, Equatable {
        /// Not the code sent (the try counts).
        case wrongCode
        /// The code's ten minutes passed, it was tried too often, or it was already used: send a new one.
        case expired
    }

    private let store = Mutex(ExpiringStore<Verification>(capacity: 100_000))
    /// How long a code stays valid, in seconds.
    static let lifetime = 600
    /// Wrong codes accepted before the code is spent.
    static let allowedFailures = 3

    init() {}

    /// Sends a new eight-digit code to `email` (into `outbox`) and returns the handle a page carries to name it.
    func send(to email: String, purpose: Outbox.Purpose, tenantID: String, clientID: String, now: Int,
              random: RandomSource, outbox: Outbox) -> String {
        let code = Self.code(random)
        let handle = Base64URL.encode(random.bytes(32))
        let verification = Verification(email: email, purpose: purpose, tenantID: tenantID, clientID: clientID.lowercased(),
                                        code: code, expiresAt: now + Self.lifetime)
        store.withLock { $0.insert(handle, verification, now: now) }
        outbox.send(Outbox.Message(to: email, code: code, purpose: purpose, sentAt: now))
        return handle
    }

    /// Checks `code` against the one sent under `handle` for `purpose`, `tenantID` and `clientID`; the right one
    /// marks the verification as done, for `spend`.
    func check(_ handle: String, code: String, purpose: Outbox.Purpose, tenantID: String, clientID: String,
               now: Int) -> Result<String, Refusal> {
        store.withLock { s -> Result<String, Refusal> in
            guard var v = s[handle], v.purpose == purpose, v.tenantID == tenantID, v.clientID == clientID.lowercased(),
                  !v.verified, v.expiresAt > now, v.failures < Self.allowedFailures else { return .failure(.expired) }
            guard code.trimmingSpaces().isSameSecret(as: v.code) else {
                v.failures += 1
                s[handle] = v
                return .failure(.wrongCode)
            }
            v.verified = true
            s[handle] = v
            return .success(v.email)
        }
    }

    /// The address a verified code under `handle` proved, without using it up (a page asking again for a password
    /// or an attribute keeps the proof); nil when there is none for this purpose, tenant and client.
    func verifiedEmail(_ handle: String, purpose: Outbox.Purpose, tenantID: String, clientID: String, now: Int) -> String? {
        store.withLock { s in
            guard let v = s[handle], v.verified, v.purpose == purpose, v.tenantID == tenantID,
                  v.clientID == clientID.lowercased(), v.expiresAt > now else { return nil }
            return v.email
        }
    }

    /// Uses the proof under `handle` up.
    func spend(_ handle: String) { store.withLock { $0[handle] = nil } }

    func removeAll() { store.withLock { $0.removeAll() } }

    /// Eight random digits, as External ID's codes have (`code_length` 8 in the native authentication API), each
    /// equally likely: bytes of 250 and above are drawn again, as 256 is no multiple of ten.
    static func code(_ random: RandomSource) -> String {
        var digits: [Character] = []
        while digits.count < 8 {
            for byte in random.bytes(16) where byte < 250 && digits.count < 8 {
                digits.append(Character(Unicode.Scalar(UInt8(ascii: "0") + byte % 10)))
            }
        }
        return String(digits)
    }
}
