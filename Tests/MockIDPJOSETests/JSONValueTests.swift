import MockIDPJOSE
import Testing

@Suite struct JSONValueTests {
    // MARK: Serialization

    @Test("object members are written in insertion order, not sorted")
    func memberOrder() {
        let value: JSONValue = ["typ": "JWT", "alg": "RS256", "kid": "abc", "b": 1, "a": 2]
        #expect(value.jsonString == #"{"typ":"JWT","alg":"RS256","kid":"abc","b":1,"a":2}"#)
    }

    @Test("replacing a member keeps its place; removing one closes the gap")
    func replaceAndRemove() {
        var object: JSONObject = ["a": 1, "b": 2, "c": 3]
        object["a"] = 10
        object["b"] = nil
        object["d"] = 4
        #expect(JSONValue.object(object).jsonString == #"{"a":10,"c":3,"d":4}"#)
        #expect(object["c"] == 3)
    }

    @Test("small objects and large ones (looked up by an index past a dozen members) set, replace and remove alike")
    func manyMembers() {
        var object = JSONObject()
        var model: [(key: String, value: JSONValue)] = []
        func set(_ key: String, _ value: JSONValue?) {
            object[key] = value
            if let i = model.firstIndex(where: { $0.key == key }) {
                if let value { model[i].value = value } else { model.remove(at: i) }
            } else if let value {
                model.append((key, value))
            }
            #expect(object.keys == model.map(\.key))
            for (key, value) in model { #expect(object[key] == value, "\(key)") }
        }
        // Grows past the limit, shrinks below it and grows again, removing from the front, middle and end.
        for n in 0..<30 { set("k\(n)", .int(n)) }
        for n in [0, 15, 29, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 17, 18] { set("k\(n)", nil) }
        for n in [1, 20, 40] { set("k\(n)", .string("again \(n)")) }
        for n in 41..<50 { set("k\(n)", .bool(n % 2 == 0)) }
        #expect(object["k0"] == nil && object["k15"] == nil)
        #expect(JSONObject(model.map { ($0.key, $0.value) }) == object)
        var repeated: JSONObject = ["a": 1, "b": 2]
        repeated.merge(["a": 3, "c": 4])
        #expect(JSONValue.object(repeated).jsonString == #"{"a":3,"b":2,"c":4}"#)
    }

    @Test("quotes, backslashes and control characters are escaped")
    func escaping() {
        let value = JSONValue.string("q\"b\\n\nr\rt\tnul\u{0}bell\u{7}us\u{1F}")
        #expect(value.jsonString == #""q\"b\\n\nr\rt\tnul\u0000bell\u0007us\u001f""#)
    }

    @Test("\"<\" is escaped so JSON inside a script element cannot close it")
    func lessThanIsEscaped() {
        #expect(JSONValue.string("</script>").jsonString == #""\u003c/script>""#)
    }

    @Test("a byte that needs escaping is found at every offset of long text, across the sixteen-byte scan")
    func escapingAtEveryOffset() {
        // Bytes just beside those that need escaping (0x1F/0x20, 0x21/0x22/0x23, 0x3B/0x3C/0x3D, 0x5B/0x5C/0x5D)
        // and non-ASCII text around them: the scan must stop at exactly the right ones.
        let special: [(Character, String)] = [("\u{1F}", "\\u001f"), ("\"", "\\\""), ("\\", "\\\\"), ("<", "\\u003c"),
                                              ("\n", "\\n"), ("\u{0}", "\\u0000")]
        let neighbours = " !#;=[]é€😀\u{7F}"
        for length in [7, 8, 9, 15, 16, 17, 31, 40, 47, 48, 49] {
            let plain = String((0..<length).map { i in Array(neighbours)[i % neighbours.count] })
            #expect(JSONValue.string(plain).jsonString == "\"\(plain)\"")
            for offset in 0..<length {
                for (character, escaped) in special {
                    var text = Array(plain)
                    text[offset] = character
                    let expected = "\"" + text.map { $0 == character ? escaped : String($0) }.joined() + "\""
                    #expect(JSONValue.string(String(text)).jsonString == expected, "\(length) \(offset)")
                }
            }
        }
    }

    @Test("non-ASCII text and the solidus are written as they are")
    func unicodeVerbatim() {
        #expect(JSONValue.string("Zoë 😀 a/b").jsonString == "\"Zoë 😀 a/b\"")
    }

    @Test("integers are written without a fraction and doubles with one")
    func numbers() {
        let value: JSONValue = [.int(1_538_538_422), .double(1.5), .double(2), .int(-7), .double(-0.25)]
        #expect(value.jsonString == "[1538538422,1.5,2.0,-7,-0.25]")
        #expect(JSONValue.int(Int.max).jsonString == "9223372036854775807")
        #expect(JSONValue.int(Int.min).jsonString == "-9223372036854775808")
        for n in [0, 9, 10, -1, -10, 99_999, 1_000_000_007, -1_538_538_422] {
            #expect(JSONValue.int(n).jsonString == String(n))
        }
    }

    @Test("NaN and infinity are written as null, since JSON cannot express them")
    func nonFiniteDoubles() {
        #expect(JSONValue.array([.double(.nan), .double(.infinity)]).jsonString == "[null,null]")
    }

    @Test("literals, empty containers and nesting serialize compactly")
    func compactForms() {
        let value: JSONValue = ["t": true, "f": false, "n": nil, "a": [], "o": [:], "x": [["y": [1, "z"]]]]
        #expect(value.jsonString == #"{"t":true,"f":false,"n":null,"a":[],"o":{},"x":[{"y":[1,"z"]}]}"#)
    }

    // MARK: Parsing valid documents

    @Test("a document parses with member order, integers and doubles kept apart")
    func parsesDocument() throws {
        let value = try JSONValue.parse(#" { "b" : [1, -2.5e2, 3E-1, 0, -0.5], "a": {"x": null}, "t": true, "f": false } "#)
        let object = try #require(value.objectValue)
        #expect(object.keys == ["b", "a", "t", "f"])
        #expect(value["b"] == [.int(1), .double(-250), .double(0.3), .int(0), .double(-0.5)])
        #expect(value["a"]?["x"] == .null)
        #expect(value["t"]?.boolValue == true)
    }

    @Test("escapes decode, including surrogate pairs")
    func parsesEscapes() throws {
        let value = try JSONValue.parse(#""\"\\\/\b\f\n\r\t\u0041\u00e9\ud83d\ude00""#)
        #expect(value == .string("\"\\/\u{8}\u{C}\n\r\tAé😀"))
    }

    @Test("an integer too large for Int becomes a double; a NumericDate double reads as an integer")
    func largeNumbers() throws {
        #expect(try JSONValue.parse("9223372036854775808") == .double(9_223_372_036_854_775_808))
        #expect(try JSONValue.parse("1538538422.0").intValue == 1_538_538_422)
        #expect(try JSONValue.parse("1.5").intValue == nil)
    }

    @Test("serialized values parse back to the same value", arguments: [
        #"{"a":[1,2.5,"x",true,false,null,{"b":{}}],"c":"\u003c\n\u0000é"}"#,
        #"[]"#, #""""#, #"-0.125"#, #"{"z":1,"a":2}"#,
    ])
    func roundTrip(text: String) throws {
        let value = try JSONValue.parse(text)
        #expect(try JSONValue.parse(value.serialized()) == value)
        #expect(value.jsonString == text)
    }

    @Test("nesting up to the depth limit is accepted")
    func depthLimitAccepted() throws {
        let depth = JSONValue.maximumDepth
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(throws: Never.self) { try JSONValue.parse(text) }
    }

    // MARK: Parsing errors

    @Test("malformed documents are rejected with the reason", arguments: [
        ("", "unexpected end of text"),
        ("[1] x", "unexpected text after the value"),
        ("{} {}", "unexpected text after the value"),
        ("[1,]", "unexpected character"),
        ("{\"a\":1,}", "expected a member name"),
        ("{\"a\" 1}", "expected ':'"),
        ("{a:1}", "expected a member name"),
        ("[1 2]", "expected ',' or ']'"),
        ("{\"a\":1 \"b\":2}", "expected ',' or '}'"),
        ("[1", "unexpected end of text in an array"),
        ("\"abc", "unterminated string"),
        ("\"a\u{1}b\"", "control character in a string"),
        ("\"a\nb\"", "control character in a string"),
        ("tru", "expected true"),
        ("nul", "expected null"),
        ("'a'", "unexpected character"),
    ])
    func structureErrors(text: String, reason: String) throws {
        let error = try #require(throws: JSONParseError.self) { try JSONValue.parse(text) }
        #expect(error.reason == reason)
    }

    @Test("bad escapes are rejected", arguments: [#""\x""#, #""\u12""#, #""\u12G4""#, #""\'""#, #""\"#])
    func badEscapes(text: String) {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(text) }
    }

    @Test("unpaired surrogates are rejected", arguments: [
        #""\ud800""#, #""\ud800x""#, #""\udc00""#, #""\ud800\u0041""#, #""\ud800\ud800""#,
    ])
    func unpairedSurrogates(text: String) throws {
        let error = try #require(throws: JSONParseError.self) { try JSONValue.parse(text) }
        #expect(error.reason == "unpaired surrogate")
    }

    @Test("invalid UTF-8 is rejected, overlong forms and encoded surrogates included", arguments: [
        [0x22, 0xFF, 0x22], [0x22, 0xC0, 0x80, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xE2, 0x82, 0x22],
    ] as [[UInt8]])
    func invalidUTF8(bytes: [UInt8]) throws {
        let error = try #require(throws: JSONParseError.self) { try JSONValue.parse(bytes) }
        #expect(error.reason == "the text is not valid UTF-8")
    }

    @Test("a depth bomb of 10,000 \"[\" fails fast instead of exhausting the stack")
    func depthBomb() throws {
        let error = try #require(throws: JSONParseError.self) {
            try JSONValue.parse(String(repeating: "[", count: 10_000))
        }
        #expect(error.reason.contains("nesting deeper than"))
        #expect(error.offset == JSONValue.maximumDepth)
    }

    @Test("malformed numbers are rejected", arguments: ["01", "-", "1.", ".5", "+1", "1e", "1e+", "-01", "0x10", "1.e3", "NaN", "Infinity"])
    func badNumbers(text: String) {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(text) }
    }

    @Test("numbers beyond a double's range are rejected rather than read as infinity")
    func outOfRangeNumbers() throws {
        let error = try #require(throws: JSONParseError.self) { try JSONValue.parse("[1e400]") }
        #expect(error.reason == "number out of range")
        #expect(throws: JSONParseError.self) { try JSONValue.parse("-1e400") }
    }

    @Test("the error says at which byte reading stopped")
    func errorOffset() throws {
        let error = try #require(throws: JSONParseError.self) { try JSONValue.parse(#"{"a": tru}"#) }
        #expect(error.offset == 6)
        #expect(error.description == "invalid JSON at byte 6: expected true")
    }
}
