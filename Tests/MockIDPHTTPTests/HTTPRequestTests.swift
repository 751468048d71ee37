import MockIDPHTTP
import Testing

@Suite struct HTTPRequestTests {
    @Test("queryValue gives the first value of a name")
    func queryValue() {
        let request = HTTPRequest(query: [(name: "p", value: "B2C_1_a"), (name: "p", value: "other"), (name: "x", value: "")])
        #expect(request.queryValue("p") == "B2C_1_a")
        #expect(request.queryValue("x") == "")
        #expect(request.queryValue("P") == nil)
    }

    @Test("loopback peers are recognised in IPv4, IPv6 and mapped form", arguments: [
        ("127.0.0.1", true), ("127.8.9.10", true), ("::1", true), ("::ffff:127.0.0.1", true), ("::FFFF:127.0.0.2", true),
        ("10.0.0.1", false), ("::2", false), ("::ffff:10.0.0.1", false), ("", false), ("1.127.0.0", false),
    ])
    func loopback(address: String, expected: Bool) {
        #expect(HTTPRequest(remoteAddress: address).isLoopback == expected)
    }
}
