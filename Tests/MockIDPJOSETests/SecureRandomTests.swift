import MockIDPJOSE
import Testing

@Suite struct SecureRandomTests {
    @Test("returns exactly the number of bytes asked for")
    func count() {
        for count in [0, 1, 16, 32, 1000] { #expect(SecureRandom.bytes(count).count == count) }
    }

    @Test("two draws of 32 bytes differ and are not all zero")
    func unpredictable() {
        let a = SecureRandom.bytes(32), b = SecureRandom.bytes(32)
        #expect(a != b)
        #expect(a.contains { $0 != 0 })
    }
}
