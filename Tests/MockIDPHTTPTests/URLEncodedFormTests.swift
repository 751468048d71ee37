import MockIDPHTTP
import Testing

@Suite struct URLEncodedFormTests {
    private func pairs(_ s: String) throws -> [String] {
        try URLEncodedForm.decode(s).map { "\($0.name)=\($0.value)" }
    }

    @Test("plus is a space and %2B a plus")
    func plusAndEscapedPlus() throws {
        #expect(try pairs("q=a+b&r=a%2Bb&s=%20") == ["q=a b", "r=a+b", "s= "])
    }

    @Test("percent escapes decode to UTF-8 text in either hex case")
    func escapes() throws {
        #expect(try pairs("name=J%C3%BCrgen&x=%e2%82%ac") == ["name=Jürgen", "x=€"])
        #expect(try pairs("redirect_uri=https%3A%2F%2Fapp%2Fcb%3Fa%3D1") == ["redirect_uri=https://app/cb?a=1"])
    }

    @Test("duplicates are kept in order and empty values survive")
    func duplicatesAndEmpties() throws {
        #expect(try pairs("a=1&b=&a=2&c") == ["a=1", "b=", "a=2", "c="])
    }

    @Test("empty pieces and a trailing ampersand are skipped")
    func emptyPieces() throws {
        #expect(try pairs("") == [])
        #expect(try pairs("a=1&&b=2&") == ["a=1", "b=2"])
        #expect(try pairs("=v") == ["=v"])
    }

    @Test("only the first equals sign separates name from value")
    func firstEqualsSplits() throws {
        #expect(try pairs("k=a=b") == ["k=a=b"])
    }

    @Test("a bad percent-escape is an error that says where")
    func badEscape() {
        #expect(throws: URLEncodingError(.invalidPercentEscape, offset: 4)) { try URLEncodedForm.decode("a=1&%zz=2") }
        #expect(throws: URLEncodingError(.invalidPercentEscape, offset: 2)) { try URLEncodedForm.decode("a=%4") }
        #expect(throws: URLEncodingError(.invalidPercentEscape, offset: 2)) { try URLEncodedForm.decode("a=%") }
        let error = URLEncodingError(.invalidPercentEscape, offset: 2)
        #expect(error.description.contains("byte 2"))
    }

    @Test("bytes that are not UTF-8 are an error")
    func invalidUTF8() {
        #expect(throws: URLEncodingError(.invalidUTF8, offset: 2)) { try URLEncodedForm.decode("a=%FF") }
        #expect(throws: URLEncodingError(.invalidUTF8, offset: 0)) { try URLEncodedForm.decode("%C3=x") }
        #expect(throws: URLEncodingError(.invalidUTF8, offset: 2)) { try URLEncodedForm.decode([0x61, 0x3D, 0xC3, 0x28]) }
    }

    @Test("a NUL character is an error, escaped or raw")
    func nul() {
        #expect(throws: URLEncodingError(.nulCharacter, offset: 2)) { try URLEncodedForm.decode("a=x%00y") }
        #expect(throws: URLEncodingError(.nulCharacter, offset: 0)) { try URLEncodedForm.decode([0x61, 0x00, 0x3D]) }
    }

    @Test("decoding bytes and decoding text agree")
    func bytesAndText() throws {
        let text = "grant_type=authorization_code&code=abc%2Fdef&scope=openid+profile"
        let fromBytes = try URLEncodedForm.decode(Array(text.utf8)).map { "\($0.name)=\($0.value)" }
        #expect(try pairs(text) == fromBytes)
        #expect(fromBytes == ["grant_type=authorization_code", "code=abc/def", "scope=openid profile"])
    }

    @Test("encode keeps unreserved characters, writes space as plus and escapes the rest")
    func encode() {
        let encoded = URLEncodedForm.encode([(name: "scope", value: "openid profile"), (name: "r", value: "a+b/c?d=é~_.-")])
        #expect(encoded == "scope=openid+profile&r=a%2Bb%2Fc%3Fd%3D%C3%A9~_.-")
    }

    @Test("encoding then decoding gives back the same pairs")
    func roundTrip() throws {
        let original: [(name: String, value: String)] = [
            (name: "a b", value: "x&y=z"), (name: "a b", value: ""), (name: "ünï", value: "100% + 😀"), (name: "k", value: "\t\r\n"),
        ]
        let decoded = try URLEncodedForm.decode(URLEncodedForm.encode(original))
        #expect(decoded.map(\.name) == original.map(\.name))
        #expect(decoded.map(\.value) == original.map(\.value))
    }

    @Test("percentDecode decodes escapes and keeps a plus")
    func componentCoding() throws {
        #expect(try URLEncodedForm.percentDecode("a%20b+c%2F%C3%A9") == "a b+c/é")
        #expect(try URLEncodedForm.percentDecode("a+b"[...]) == "a+b")
        #expect(throws: URLEncodingError(.invalidPercentEscape, offset: 1)) { try URLEncodedForm.percentDecode("a%g0") }
        #expect(throws: URLEncodingError(.nulCharacter, offset: 0)) { try URLEncodedForm.percentDecode("%00") }
    }

    /// A component is scanned sixteen bytes at a time, then byte by byte: a '+', an escape, a NUL or a byte past ASCII
    /// is found wherever it lies, in the sixteen-byte steps or in the tail, and a '+' in a path stays a '+'.
    @Test("a plus, an escape, a NUL or non-ASCII text is found at every position of a long component")
    func everyPosition() throws {
        for length in [1, 15, 16, 17, 31, 32, 40] {
            for at in 0..<length {
                var plain = Array(repeating: UInt8(ascii: "a"), count: length)
                #expect(try pairs("v=" + String(decoding: plain, as: UTF8.self)) == ["v=" + String(repeating: "a", count: length)])
                plain[at] = UInt8(ascii: "+")
                let text = String(decoding: plain, as: UTF8.self)
                #expect(try pairs("v=" + text) == ["v=" + text.replacing("+", with: " ")])
                #expect(try URLEncodedForm.percentDecode(text) == text)
                plain[at] = 0
                #expect(throws: URLEncodingError.self) { try URLEncodedForm.decode(plain) }
                plain[at] = 0xC3
                plain.insert(0xBC, at: at + 1)
                #expect(try URLEncodedForm.decode(plain).first?.name == String(decoding: plain, as: UTF8.self))
                plain[at + 1] = 0x41
                #expect(throws: URLEncodingError.self) { try URLEncodedForm.decode(plain) }
            }
        }
        #expect(try pairs("scope=api%3A%2F%2Fcontoso-api%2F.default&client_id=9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d")
            == ["scope=api://contoso-api/.default", "client_id=9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d"])
    }
}
