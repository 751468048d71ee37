import MockIDPJOSE
import Testing

@Suite struct SealingKeyTests {
    @Test("what a key seals it opens again; another key, a changed byte or a cut value opens to nothing")
    func roundTripAndTampering() {
        let key = SealingKey()
        let plain = Array("a refresh grant".utf8)
        let sealed = key.seal(plain)
        #expect(sealed.count == plain.count + 28)
        #expect(key.open(sealed) == plain)
        #expect(key.seal(plain) != sealed, "every seal takes a fresh nonce")
        #expect(SealingKey().open(sealed) == nil)
        for index in [0, 12, sealed.count - 1] {
            var changed = sealed
            changed[index] ^= 0x01
            #expect(key.open(changed) == nil, "a change at byte \(index) went unnoticed")
        }
        #expect(key.open(Array(sealed.dropLast())) == nil)
        #expect(key.open([]) == nil)
        #expect(key.open(key.seal([])) == [])
    }
}
