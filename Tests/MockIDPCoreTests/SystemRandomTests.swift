import MockIDPCore
import Testing

@Suite struct SystemRandomTests {
    @Test("pooled random bytes: the lengths asked for, never handed out twice, across pool refills and large draws")
    func pooled() {
        let random = SystemRandom()
        var seen = Set<[UInt8]>()
        for count in [16, 48, 40, 104, 1, 0, 1024, 1025, 5000] {
            for _ in 0..<50 {
                let bytes = random.bytes(count)
                #expect(bytes.count == count)
                if count >= 16 { #expect(seen.insert(bytes).inserted, "a draw of \(count) bytes repeated") }
            }
        }
        // Not all zero (the pool wipes bytes once they are taken, and must never hand those out).
        #expect(random.bytes(64).contains { $0 != 0 })
    }
}
