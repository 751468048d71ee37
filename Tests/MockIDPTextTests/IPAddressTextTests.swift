import Glibc
import MockIDPText
import Testing

@Suite struct IPAddressTextTests {
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
            #expect(IPAddressText.dotted(address) == Self.inetNtop(address))
            let bytes = [UInt8(address >> 24), UInt8(address >> 16 & 0xFF), UInt8(address >> 8 & 0xFF), UInt8(address & 0xFF)]
            #expect(IPAddressText.format(bytes) == Self.inetNtop(address))
        }
        #expect(IPAddressText.dotted(0x7F00_0001) == "127.0.0.1")
    }

    @Test("IPv6 addresses are written as RFC 5952 says: lower case, the longest run of zero groups as ::")
    func ipv6() {
        var loopback = [UInt8](repeating: 0, count: 16)
        loopback[15] = 1
        #expect(IPAddressText.format(loopback) == "::1")
        let documentation: [UInt8] = [0x20, 0x01, 0x0D, 0xB8, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0xAB]
        #expect(IPAddressText.format(documentation) == "2001:db8::1:0:0:ab")
        let noRun: [UInt8] = [0x20, 0x01, 0x0D, 0xB8, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1]
        #expect(IPAddressText.format(noRun) == "2001:db8:0:1:1:1:1:1")
        #expect(IPAddressText.format([1, 2, 3]) == nil)
    }
}
