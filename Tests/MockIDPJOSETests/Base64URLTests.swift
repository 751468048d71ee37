import Foundation
import MockIDPJOSE
import Testing

@Suite struct Base64URLTests {
    /// RFC 4648 §10.
    static let vectors: [(plain: String, standard: String)] = [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ]

    @Test("RFC 4648 test vectors encode in both alphabets")
    func rfc4648Encode() {
        for (plain, standard) in Self.vectors {
            #expect(Base64URL.encodeStandard(Array(plain.utf8)) == standard)
            #expect(Base64URL.encode(Array(plain.utf8)) == standard.filter { $0 != "=" })
        }
    }

    @Test("text between a prefix and a suffix is the prefix, the unpadded text and the suffix")
    func between() {
        for (plain, standard) in Self.vectors {
            let bytes = Array(("xx" + plain).utf8)
            #expect(Base64URL.encode(bytes[2...], between: "0.", and: ".") == "0." + standard.filter { $0 != "=" } + ".")
            #expect(Base64URL.encode(bytes[2...], between: "", and: "") == standard.filter { $0 != "=" })
        }
    }

    @Test("RFC 4648 test vectors decode padded and unpadded")
    func rfc4648Decode() {
        for (plain, standard) in Self.vectors {
            #expect(Base64URL.decode(standard) == Array(plain.utf8))
            #expect(Base64URL.decode(standard.filter { $0 != "=" }) == Array(plain.utf8))
        }
    }

    @Test("collections without contiguous storage, slices and appending to text already there encode alike")
    func collectionsAndAppending() {
        let plain = Array("foobar and more".utf8)
        #expect(Base64URL.encode(plain.lazy.map { $0 }) == Base64URL.encode(plain))
        #expect(Base64URL.encode(plain[3..<9]) == Base64URL.encode(Array(plain[3..<9])))
        var out = Array("head.".utf8)
        Base64URL.append(plain[0..<4], to: &out)
        #expect(String(decoding: out, as: UTF8.self) == "head.Zm9vYg")
    }

    @Test("arrays, slices and other collections encode alike at every length, appended or not")
    func overloadsAgree() {
        let bytes = (0..<70).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        for length in 0...bytes.count {
            let array = Array(bytes.prefix(length))
            let generic = Base64URL.encode(array.lazy.map { $0 })
            #expect(Base64URL.encode(array) == generic)
            #expect(Base64URL.encode(bytes[0..<length]) == generic)
            #expect(Base64URL.encodeStandard(array).filter { $0 != "=" } == generic.replacing("-", with: "+").replacing("_", with: "/"))
            var out = Array("x.".utf8)
            Base64URL.append(array, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == "x." + generic)
        }
    }

    @Test("the text is what a bit-by-bit encoding gives, for every length up to 100 and 300 random inputs")
    func matchesBitByBit() {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        func bitByBit(_ bytes: [UInt8]) -> String {
            let bits = bytes.flatMap { byte in (0..<8).map { byte >> (7 - $0) & 1 } }
            return String(stride(from: 0, to: bits.count, by: 6).map { start in
                let group = bits[start..<min(start + 6, bits.count)] + Array(repeating: 0, count: max(0, start + 6 - bits.count))
                return alphabet[Int(group.reduce(0) { $0 << 1 | $1 })]
            })
        }
        var generator = SystemRandomNumberGenerator()
        for run in 0..<300 {
            let bytes = (0..<(run % 101)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(Base64URL.encode(bytes) == bitByBit(bytes), "\(bytes)")
        }
    }

    @Test("the URL alphabet uses - and _ where the standard one uses + and /")
    func alphabets() {
        let bytes: [UInt8] = [0xFB, 0xFF, 0xBF, 0xFA]
        #expect(Base64URL.encode(bytes) == "-_-_-g")
        #expect(Base64URL.encodeStandard(bytes) == "+/+/+g==")
        #expect(Base64URL.decode("-_-_-g") == bytes)
        #expect(Base64URL.decode("+/+/+g==") == bytes)
    }

    @Test("every byte value survives a round trip")
    func roundTrip() {
        let bytes = (0...255).map { UInt8($0) }
        for length in [0, 1, 2, 3, 254, 255, 256] {
            let slice = Array(bytes.prefix(length))
            #expect(Base64URL.decode(Base64URL.encode(slice)) == slice)
            #expect(Base64URL.decode(Base64URL.encodeStandard(slice)) == slice)
        }
    }

    @Test("invalid text is refused", arguments: [
        "Zm9v!", "Zm 9v", "Zm9v\n", "Z", "Zm9vY", "Zg=", "Zm8==", "Zm9v=", "=", "==", "Zg==Zg==", "Zg=a", "Zh", "Zm9=",
        "é",
    ])
    func invalid(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }

    @Test("whitespace is allowed only when asked for, as in PEM bodies")
    func whitespace() {
        #expect(Base64URL.decode("Zm9v\nYmFy") == nil)
        #expect(Base64URL.decode("Zm9v\r\nYmFy \tZg==\n", ignoringWhitespace: true) == Array("foobarf".utf8))
    }

    /// The encoder takes twelve bytes at a time with SSSE3 while sixteen remain, then three at a time: every length
    /// from 0 to 200 (each way the two parts can meet) and every byte value, against Foundation's encoder.
    @Test("every length and byte value encodes as Foundation encodes it, in both alphabets")
    func agreesWithFoundation() {
        var generator = SystemRandomNumberGenerator()
        var seen = Set<UInt8>()
        for length in 0...200 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            seen.formUnion(bytes)
            let standard = Data(bytes).base64EncodedString()
            #expect(Base64URL.encodeStandard(bytes) == standard, "length \(length)")
            let url = standard.replacing("+", with: "-").replacing("/", with: "_").filter { $0 != "=" }
            #expect(Base64URL.encode(bytes) == url, "length \(length)")
            #expect(Base64URL.decode(url) == bytes)
        }
        // All 64 characters of each alphabet come out of the twelve-byte steps: 0...255 repeated covers every index.
        let every = (0..<768).map { UInt8(truncatingIfNeeded: $0) }
        #expect(Base64URL.encodeStandard(every) == Data(every).base64EncodedString())
        #expect(Set(Base64URL.encode(every)).count == 64)
        #expect(seen.count > 200)
    }
}
