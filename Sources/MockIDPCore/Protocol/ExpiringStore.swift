/// Something the provider issues that stops being valid at a point of its clock.
protocol Expiring: Sendable {
    /// Seconds since 1970 (provider clock) after which the value is dead.
    var expiresAt: Int { get }
}

/// Issued values by key (codes, device codes, ended sessions), bounded so that a long test run or a stream of
/// clients cannot grow memory without end. Expired values are swept out whenever the store has grown by a quarter
/// since the last sweep, so it holds at most about 1.25 times what is alive (amortised: a sweep of n values comes
/// after n/4 inserts); and when full, expired values go first, and if that is not enough everything is forgotten
/// (clients then see the same error as after a restart).
struct ExpiringStore<Value: Expiring>: Sendable {
    private var values: [String: Value] = [:]
    let capacity: Int
    /// The count at which the next insert sweeps expired values out.
    private var sweepAt = Self.smallestSweep
    static var smallestSweep: Int { 1024 }

    init(capacity: Int) { self.capacity = capacity }

    /// How many values the store holds, expired ones not yet swept included.
    var count: Int { values.count }

    /// The value, whether expired or not (callers tell "expired" from "unknown").
    subscript(key: String) -> Value? {
        get { values[key] }
        set { values[key] = newValue }
    }

    mutating func insert(_ key: String, _ value: Value, now: Int) {
        if values.count >= min(sweepAt, capacity) {
            values = values.filter { $0.value.expiresAt > now }
            sweepAt = max(Self.smallestSweep, values.count + values.count / 4)
        }
        if values.count >= capacity { values.removeAll() }
        values[key] = value
    }

    mutating func removeAll() {
        values.removeAll()
        sweepAt = Self.smallestSweep
    }

    /// The values still alive at `now`, in no particular order.
    func live(now: Int) -> [Value] { values.values.filter { $0.expiresAt > now } }
}
