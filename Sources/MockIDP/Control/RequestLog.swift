import MockIDPJOSE
import Synchronization

/// The recent requests (`GET /_mockidp/requests`): method, path, status, and why a rejected one was rejected.
/// A bounded ring; never queries, bodies or headers, which may hold secrets.
final class RequestLog: Sendable {
    /// One request as the log keeps it.
    struct Entry: Sendable {
        var method: String
        var path: String
        var status: Int
        /// Why the request was rejected (nil when it was not).
        var reason: String?
    }

    /// How many requests are kept.
    static let capacity = 1000

    private struct Ring {
        var entries: [Entry] = []
        var next = 0
    }

    private let ring = Mutex(Ring())

    /// Adds a request, dropping the oldest when full.
    func record(_ entry: Entry) {
        ring.withLock { r in
            if r.entries.count < Self.capacity {
                r.entries.append(entry)
            } else {
                r.entries[r.next] = entry
                r.next = (r.next + 1) % Self.capacity
            }
        }
    }

    /// The kept requests, oldest first.
    var entries: [Entry] {
        ring.withLock { r in Array(r.entries[r.next...] + r.entries[..<r.next]) }
    }

    /// Forgets every request.
    func clear() { ring.withLock { $0 = Ring() } }

    /// `{"requests": [{"method", "path", "status", "reason"}, …]}`, newest last.
    var json: JSONValue {
        .object(["requests": .array(entries.map { e in
            .object(["method": .string(e.method), "path": .string(e.path), "status": .int(e.status),
                     "reason": e.reason.map { .string($0) } ?? .null])
        })])
    }
}
