@testable import MockIDPCore
import Testing

/// What the server keeps per issued code stays bounded by what is alive, not by how many were ever issued.
@Suite struct ExpiringStoreTests {
    struct Value: Expiring { var expiresAt: Int }

    @Test("expired values are swept out as the store grows: it holds at most about twice what is alive")
    func sweepsExpiredValues() {
        var store = ExpiringStore<Value>(capacity: 100_000)
        // 50,000 values, each alive for 100 ticks, one issued per tick: about 100 alive at any time.
        for now in 0..<50_000 {
            store.insert("v\(now)", Value(expiresAt: now + 100), now: now)
            #expect(store.count <= 2 * ExpiringStore<Value>.smallestSweep)
        }
        #expect(store["v49999"] != nil && store["v49950"] != nil)
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
