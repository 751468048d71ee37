import MockIDPJOSE
import Synchronization

/// The last SAML Response each app was sent, as sent, under its own lock: the inspector shows it decoded
/// (docs/saml.md, "Inspector"), so a test's author sees what the service provider was given. One entry an app, and
/// only the `capacity` most recent apps, so a long run cannot grow it.
package final class SAMLResponseLog: Sendable {
    /// One Response as it left the server.
    package struct Entry: Sendable, Equatable {
        /// The tenant's ID.
        package var tenantID: String
        /// The SAML app's client ID.
        package var clientID: String
        /// When it was sent (seconds since 1970, provider clock).
        package var sentAt: Int
        /// Where it was posted.
        package var destination: String
        /// The tamper defect it carries, if a fault asked for one.
        package var defect: SAMLDefect?
        /// The document, exactly the bytes posted (before base64).
        package var xml: String

        /// The inspection's form: `{"sentAt", "destination", "defect", "xml"}`, the time in ISO 8601 (UTC).
        package var json: JSONValue {
            ["sentAt": .string(EntraTime.iso8601(sentAt)), "destination": .string(destination),
             "defect": defect.map { .string($0.rawValue) } ?? nil, "xml": .string(xml)]
        }
    }

    private let entries = Mutex<[Entry]>([])
    private let capacity: Int

    init(capacity: Int = 256) { self.capacity = capacity }

    /// Keeps `entry` as its app's last Response.
    func record(_ entry: Entry) {
        entries.withLock { all in
            all.removeAll { $0.tenantID == entry.tenantID && $0.clientID.lowercased() == entry.clientID.lowercased() }
            if all.count >= capacity { all.removeFirst(all.count - capacity + 1) }
            all.append(entry)
        }
    }

    /// The last Response sent to the app `clientID` of `tenantID`, if any.
    package func last(tenantID: String, clientID: String) -> Entry? {
        entries.withLock { all in
            all.last { $0.tenantID == tenantID && $0.clientID.lowercased() == clientID.lowercased() }
        }
    }

    /// Forgets every Response (`POST /_mockidp/reset`).
    func removeAll() { entries.withLock { $0.removeAll() } }
}
