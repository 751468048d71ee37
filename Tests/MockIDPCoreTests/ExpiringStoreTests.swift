@testable import MockIDPCore
import Testing

/// What the server keeps per issued code stays bounded by what is alive, not by how many were ever issued, and by
/// the bytes of client text the codes keep, not by how large clients make it.
@Suite struct ExpiringStoreTests {
    struct Value: Expiring {
        var expiresAt: Int
        var keptBytes = 0
        static var keptBytesCapacity: Int { 1 << 20 }
    }

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

    @Test("client text is bounded in bytes: large values are swept when dead, and a store full of live text is forgotten whole")
    func boundedInBytes() {
        var store = ExpiringStore<Value>(capacity: 100_000)
        #expect(store.byteCapacity == 1 << 20)
        // 10 KB values, each alive for 10 ticks: about 100 KB alive, swept well before the bound.
        for now in 0..<5_000 {
            store.insert("v\(now)", Value(expiresAt: now + 10, keptBytes: 10_000), now: now)
            #expect(store.keptBytes <= store.byteCapacity)
        }
        #expect(store.count < 200 && store.keptBytes < 200 * 10_000)
        // Live ones only: the store never keeps more than its bound, however many arrive.
        store.removeAll()
        for i in 0..<1_000 {
            store.insert("w\(i)", Value(expiresAt: 1_000_000, keptBytes: 10_000), now: 0)
            #expect(store.keptBytes <= store.byteCapacity)
        }
        #expect(store["w999"] != nil && store.count <= (1 << 20) / 10_000)
        // Updates keep the count of bytes: a spent value that keeps less frees what it kept.
        let before = store.keptBytes
        store["w999"] = Value(expiresAt: 1_000_000, keptBytes: 10)
        #expect(store.keptBytes == before - 10_000 + 10)
        store["w999"] = nil
        #expect(store.keptBytes == before - 10_000)
    }
}
