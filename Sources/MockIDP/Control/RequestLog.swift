import MockIDPJOSE
import Synchronization

/// The recent requests (`GET /_mockidp/requests`): method, path, status, and why a rejected one was rejected.
/// A bounded ring of bounded entries (a reason can quote a huge value a client sent); never queries, bodies or
/// headers, which may hold secrets.
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
    /// The most bytes (UTF-8) of a method, path or reason kept (the rest is cut, marked with "…"): 1,000 entries
    /// stay under a few MB whatever clients send. Bytes, not characters: one character can be any number of bytes
    /// (a letter with a hundred thousand combining marks).
    static let maximumTextLength = 1024

    private struct Ring {
        var entries: [Entry] = []
        var next = 0
    }

    private let ring = Mutex(Ring())

    /// Adds a request, dropping the oldest when full.
    func record(_ entry: Entry) {
        var entry = entry
        entry.method = Self.bounded(entry.method)
        entry.path = Self.bounded(entry.path)
        entry.reason = entry.reason.map(Self.bounded)
        ring.withLock { r in
            if r.entries.count < Self.capacity {
                r.entries.append(entry)
            } else {
                r.entries[r.next] = entry
                r.next = (r.next + 1) % Self.capacity
            }
        }
    }

    /// `text` cut to `maximumTextLength` bytes, at a Unicode scalar's start (a copy, so the cut string does not keep
    /// the whole alive).
    static func bounded(_ text: String) -> String {
        guard text.utf8.count > maximumTextLength else { return text }
        var end = text.utf8.index(text.utf8.startIndex, offsetBy: maximumTextLength)
        while end > text.utf8.startIndex, text.utf8[end] & 0xC0 == 0x80 { end = text.utf8.index(before: end) }
        return String(decoding: text.utf8[..<end], as: UTF8.self) + "…"
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
