import Synchronization

/// Serialized discovery documents and key sets, reused until the provider's generation changes: they depend only
/// on the endpoint, the tenant segment and the base URL, and building them per request is most of their cost.
final class DocumentCache: Sendable {
    private struct Entry: Sendable {
        var generation: Int
        var body: [UInt8]
    }

    private let entries = Mutex<[String: Entry]>([:])
    /// Hosts and tenant segments come from clients, so the cache is bounded; it starts over when full.
    static let capacity = 4096

    /// The cached body for `key` at `generation`, or the result of `make` (cached only when it succeeds).
    func body(_ key: String, generation: Int, make: () -> [UInt8]?) -> [UInt8]? {
        if let hit = entries.withLock({ $0[key] }), hit.generation == generation { return hit.body }
        guard let body = make() else { return nil }
        entries.withLock { e in
            if e.count >= Self.capacity { e.removeAll(keepingCapacity: true) }
            e[key] = Entry(generation: generation, body: body)
        }
        return body
    }
}
