import MockIDPText
import Testing

@Suite struct ASCIITests {
    @Test("only ASCII capitals are lowered, and only ASCII letters and digits are letters and digits")
    func bytes() {
        for byte in UInt8.min...UInt8.max {
            let scalar = Unicode.Scalar(byte)
            #expect(ASCII.lower(byte) == (scalar.isASCII ? Array(String(scalar).lowercased().utf8)[0] : byte))
            #expect(ASCII.isLetter(byte) == scalar.isASCIILetter)
            #expect(ASCII.isDigit(byte) == scalar.isASCIIDigit)
        }
    }

    @Test("names compare ignoring ASCII case only")
    func compare() {
        #expect(ASCII.caseInsensitiveEquals("Content-Length", "content-length"))
        #expect(!ASCII.caseInsensitiveEquals("Content-Length", "content-lengths"))
        #expect(!ASCII.caseInsensitiveEquals("\u{212A}", "k"))
        #expect(ASCII.hasPrefixCaseInsensitive("::FFFF:127.0.0.1", "::ffff:127."))
        #expect(ASCII.lowercased("Transfer-ENCODING É") == "transfer-encoding É")
    }
}
