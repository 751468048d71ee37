import Glibc
import MockIDPHTTP
import Testing

@Suite struct IPv4TextTests {
    /// What `inet_ntop` writes for `address` (host byte order).
    static func inetNtop(_ address: UInt32) -> String {
        var bytes = in_addr(s_addr: address.bigEndian)
        var buffer = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        guard inet_ntop(AF_INET, &bytes, &buffer, socklen_t(buffer.count)) != nil else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test("addresses are written as inet_ntop writes them: every octet width, the ends, and a thousand at random")
    func agreesWithInetNtop() {
        var generator = SystemRandomNumberGenerator()
        let fixed: [UInt32] = [0, 0xFFFF_FFFF, 0x7F00_0001, 0x0A14_6409, 0x0A00_0063, 0xC0A8_0101, 0x6464_6464, 0x0909_0909]
        for address in fixed + (0..<1000).map({ _ in UInt32.random(in: 0...UInt32.max, using: &generator) }) {
            #expect(IPv4Text.dotted(address) == Self.inetNtop(address))
        }
        #expect(IPv4Text.dotted(0x7F00_0001) == "127.0.0.1")
    }
}
