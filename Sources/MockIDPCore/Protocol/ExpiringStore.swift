/// Something the provider issues that stops being valid at a point of its clock.
protocol Expiring: Sendable {
    /// Seconds since 1970 (provider clock) after which the value is dead.
    var expiresAt: Int { get }
    /// The bytes of text of the client's choosing the value keeps (scopes, a nonce, a redirect URI), which the
    /// store's byte bound counts.
    var keptBytes: Int { get }
    /// The most such bytes a store of these values keeps together (`ExpiringStore.byteCapacity`).
    static var keptBytesCapacity: Int { get }
}

/// Issued values by key (codes, device codes, ended sessions), bounded so that a long test run or a stream of
/// clients cannot grow memory without end: by count (`capacity`) and by the bytes of client text the values keep
/// (`byteCapacity`), so that a client's value sizes cannot grow it either. Expired values are swept out whenever the
/// store has grown by a quarter, in count or in bytes, since the last sweep, so it holds at most about 1.25 times
/// what is alive (amortised: a sweep of n values comes after n/4 inserts); and when full, expired values go first,
/// and if that is not enough everything is forgotten (clients then see the same error as after a restart).
struct ExpiringStore<Value: Expiring>: Sendable {
    private var values: [String: Value] = [:]
    let capacity: Int
    /// The most bytes of client text (`Expiring.keptBytes`) the values keep together.
    let byteCapacity: Int
    /// The bytes of client text the values keep now, expired ones not yet swept included.
    private(set) var keptBytes = 0
    /// The count at which the next insert sweeps expired values out.
    private var sweepAt = Self.smallestSweep
    /// The kept bytes at which the next insert sweeps expired values out.
    private var sweepAtBytes: Int
    static var smallestSweep: Int { 1024 }

    init(capacity: Int, byteCapacity: Int = Value.keptBytesCapacity) {
        self.capacity = capacity
        self.byteCapacity = byteCapacity
        sweepAtBytes = Self.smallestByteSweep(byteCapacity)
    }

    /// The kept bytes below which no insert sweeps: a sixteenth of the bound.
    private static func smallestByteSweep(_ byteCapacity: Int) -> Int { max(1, byteCapacity / 16) }

    /// How many values the store holds, expired ones not yet swept included.
    var count: Int { values.count }

    /// The value, whether expired or not (callers tell "expired" from "unknown"). Setting one keeps the byte count;
    /// the bounds are enforced by `insert`, and updates only ever keep as much or less.
    subscript(key: String) -> Value? {
        get { values[key] }
        set {
            if let old = values[key] { keptBytes -= old.keptBytes }
            if let newValue { keptBytes += newValue.keptBytes }
            values[key] = newValue
        }
    }

    mutating func insert(_ key: String, _ value: Value, now: Int) {
        let bytes = value.keptBytes
        if values.count >= min(sweepAt, capacity) || keptBytes + bytes > min(sweepAtBytes, byteCapacity) {
            values = values.filter { $0.value.expiresAt > now }
            keptBytes = values.values.reduce(0) { $0 + $1.keptBytes }
            sweepAt = max(Self.smallestSweep, values.count + values.count / 4)
            sweepAtBytes = max(Self.smallestByteSweep(byteCapacity), keptBytes + keptBytes / 4)
        }
        // A value over the whole bound alone never comes here: the requests that make one refuse such text first.
        if values.count >= capacity || keptBytes + bytes > byteCapacity { removeAll() }
        self[key] = value
    }

    mutating func removeAll() {
        values.removeAll()
        keptBytes = 0
        sweepAt = Self.smallestSweep
        sweepAtBytes = Self.smallestByteSweep(byteCapacity)
    }

    /// The values still alive at `now`, in no particular order.
    func live(now: Int) -> [Value] { values.values.filter { $0.expiresAt > now } }
}
