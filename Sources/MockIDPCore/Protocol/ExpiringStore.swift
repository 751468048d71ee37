/// Something the provider issues that stops being valid at a point of its clock.
protocol Expiring: Sendable {
    /// Seconds since 1970 (provider clock) after which the value is dead.
    var expiresAt: Int { get }
}

/// Issued values by key (refresh tokens, codes, sessions, device codes), bounded so that a long test run or a
/// stream of clients cannot grow memory without end: when full, expired values go first, and if that is not
/// enough everything is forgotten (clients then see the same error as after a restart).
struct ExpiringStore<Value: Expiring>: Sendable {
    private var values: [String: Value] = [:]
    let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// The value, whether expired or not (callers tell "expired" from "unknown").
    subscript(key: String) -> Value? {
        get { values[key] }
        set { values[key] = newValue }
    }

    mutating func insert(_ key: String, _ value: Value, now: Int) {
        if values.count >= capacity { values = values.filter { $0.value.expiresAt > now } }
        if values.count >= capacity { values.removeAll() }
        values[key] = value
    }

    mutating func removeAll() { values.removeAll() }

    /// The values still alive at `now`, in no particular order.
    func live(now: Int) -> [Value] { values.values.filter { $0.expiresAt > now } }
}
