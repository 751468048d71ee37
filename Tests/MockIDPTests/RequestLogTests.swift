@testable import MockIDP
import Testing

/// The request log stays bounded in size, not only in count: a reason can quote a huge value a client sent.
@Suite struct RequestLogTests {
    @Test("a long path or reason is cut to the limit and marked; short ones are kept as they are")
    func bounded() {
        let log = RequestLog()
        let huge = String(repeating: "x", count: 200_000)
        log.record(RequestLog.Entry(method: "GET", path: "/" + huge, status: 400, reason: "the scope '\(huge)' is not valid here"))
        log.record(RequestLog.Entry(method: "GET", path: "/ok", status: 200, reason: nil))
        let entries = log.entries
        #expect(entries[0].path.count == RequestLog.maximumTextLength + 1 && entries[0].path.hasSuffix("…"))
        #expect(entries[0].reason?.count == RequestLog.maximumTextLength + 1 && entries[0].reason?.hasPrefix("the scope 'xxx") == true)
        #expect(entries[1].path == "/ok" && entries[1].reason == nil)
    }

    @Test("the bound is in bytes: one character of many bytes, a long method and multi-byte text are cut to it, never split")
    func boundedInBytes() throws {
        let log = RequestLog()
        // One grapheme cluster: a letter and 100,000 combining marks (200 KB of UTF-8).
        let cluster = "a" + String(repeating: "\u{0301}", count: 100_000)
        log.record(RequestLog.Entry(method: String(repeating: "M", count: 60_000), path: "/" + cluster, status: 404,
                                    reason: String(repeating: "é", count: 50_000)))
        let entry = try #require(log.entries.first)
        let limit = RequestLog.maximumTextLength + "…".utf8.count
        #expect(entry.method.utf8.count == limit && entry.method.hasSuffix("…"))
        #expect(entry.path.utf8.count <= limit && entry.path.utf8.starts(with: "/a\u{0301}".utf8) && entry.path.hasSuffix("…"))
        // Two-byte characters: cut between them, so the text stays valid and no replacement character appears.
        #expect((entry.reason?.utf8.count ?? 0) <= limit && entry.reason?.contains("\u{FFFD}") == false)
        #expect(entry.reason?.hasPrefix("éé") == true)
    }

    @Test("the ring keeps the newest entries up to its capacity")
    func ring() {
        let log = RequestLog()
        for i in 0..<(RequestLog.capacity + 5) { log.record(RequestLog.Entry(method: "GET", path: "/\(i)", status: 200, reason: nil)) }
        let entries = log.entries
        #expect(entries.count == RequestLog.capacity)
        #expect(entries.first?.path == "/5" && entries.last?.path == "/\(RequestLog.capacity + 4)")
    }
}
