import MockIDPJOSE
import Testing

@Suite struct DigestTests {
    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    @Test("SHA-1 and SHA-2 of \"abc\" match FIPS 180-4's examples")
    func abc() {
        let abc = Array("abc".utf8)
        #expect(hex(Digest.sha1(abc)) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(hex(Digest.sha256(abc)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex(Digest.sha384(abc))
            == "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7")
        #expect(hex(Digest.sha512(abc))
            == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd"
            + "454d4423643ce80e2a9ac94fa54ca49f")
    }

    @Test("the empty input has the well-known SHA-256")
    func empty() {
        #expect(hex(Digest.sha256([UInt8]())) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test("non-contiguous collections hash like the same bytes in an array")
    func anyCollection() {
        let text = "The quick brown fox jumps over the lazy dog"
        #expect(Digest.sha256(text.utf8) == Digest.sha256(Array(text.utf8)))
        #expect(Digest.sha1(Array(text.utf8).reversed()) == Digest.sha1(Array(text.utf8.reversed())))
        #expect(hex(Digest.sha1(text.utf8)) == "2fd4e1c67a2d28fced849ee1bb76e7391b93eb12")
    }
}
