@testable import MockIDPCore
import Testing

/// What the server keeps per issued code stays bounded by what is alive, not by how many were ever issued.
@Suite struct ExpiringStoreTests {
    struct Value: Expiring { var expiresAt: Int }

    @Test("expired values are swept out as the store grows: it holds about what is alive, never more than the sweep bound")
    func sweepsExpiredValues() {
        var store = ExpiringStore<Value>(capacity: 100_000)
        // 50,000 values, each alive for 100 ticks, one issued per tick: about 100 alive at any time.
        for now in 0..<50_000 {
            store.insert("v\(now)", Value(expiresAt: now + 100), now: now)
            #expect(store.count <= ExpiringStore<Value>.smallestSweep)
        }
        #expect(store["v49999"] != nil && store["v49950"] != nil)
        // 50,000 more, each alive for 10,000 ticks: about 10,000 alive, and never more than a quarter over that.
        for now in 50_000..<100_000 {
            store.insert("w\(now)", Value(expiresAt: now + 10_000), now: now)
        }
        #expect(store.count <= 12_500 + 1)
    }

    @Test("live values are never swept; a full store of live values is forgotten whole")
    func keepsLiveValuesUntilFull() {
        var store = ExpiringStore<Value>(capacity: 5_000)
        for i in 0..<4_999 { store.insert("v\(i)", Value(expiresAt: 1_000), now: 0) }
        #expect(store.count == 4_999 && store["v0"] != nil)
        store.insert("v4999", Value(expiresAt: 1_000), now: 0)
        #expect(store.count == 5_000)
        store.insert("v5000", Value(expiresAt: 1_000), now: 0)
        #expect(store.count == 1 && store["v5000"] != nil)
    }
}
