import MockIDPJOSE
import Synchronization

/// The one-time passcodes External ID would have mailed (sign-up, sign-in, password reset, MFA), under their own
/// lock: tests read them from the control API (`GET /_mockidp/outbox`), the inspector and `MockIDPTesting`. Only the
/// newest `capacity` messages are kept, so a long run cannot grow it.
package final class Outbox: Sendable {
    /// One message the server would have sent.
    package struct Message: Sendable, Equatable {
        /// The address it was sent to.
        package var to: String
        /// The one-time passcode it carries.
        package var code: String
        /// What the code is for.
        package var purpose: Purpose
        /// When it was sent (seconds since 1970, provider clock).
        package var sentAt: Int

        /// The control API's form: `{"to", "code", "purpose", "sentAt"}`, the time in ISO 8601 (UTC).
        package var json: JSONValue {
            ["to": .string(to), "code": .string(code), "purpose": .string(purpose.rawValue),
             "sentAt": .string(EntraTime.iso8601(sentAt))]
        }
    }

    /// Why a code was sent.
    package enum Purpose: String, Sendable {
        case signUp
        case signIn
        case passwordReset
        case mfa
    }

    private let messages = Mutex<[Message]>([])
    private let capacity: Int

    init(capacity: Int = 1000) { self.capacity = capacity }

    /// Keeps `message`, the oldest dropped when the outbox is full.
    package func send(_ message: Message) {
        messages.withLock { all in
            if all.count >= capacity { all.removeFirst(all.count - capacity + 1) }
            all.append(message)
        }
    }

    /// Every message kept, oldest first.
    package var all: [Message] { messages.withLock { $0 } }

    /// Empties the outbox (`POST /_mockidp/reset`).
    package func removeAll() { messages.withLock { $0.removeAll() } }
}
