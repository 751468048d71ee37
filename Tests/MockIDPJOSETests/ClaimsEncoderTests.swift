import MockIDPJOSE
import Testing

@Suite struct ClaimsEncoderTests {
    struct Claims: Encodable {
        var audience: String
        var issuedAt: Int
        var groups: [String]?
        var name: String?
        var verified: Bool?
        var extra: JSONValue?

        enum CodingKeys: String, CodingKey {
            case audience = "aud", issuedAt = "iat", groups, name, verified = "email_verified", extra
        }
    }

    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test("members come in declaration order under their CodingKeys names, nil members left out")
    func order() throws {
        let claims = Claims(audience: "api://x", issuedAt: 1_800_000_000, groups: ["a", "b"], name: nil, verified: true)
        #expect(text(try ClaimsEncoder.encode(claims)) == #"{"aud":"api://x","iat":1800000000,"groups":["a","b"],"email_verified":true}"#)
    }

    @Test("overrides replace members in place and the rest follow in order, exactly as setting them on a JSONObject does")
    func overridesMatchJSONObjectMerge() throws {
        let claims = Claims(audience: "api://x", issuedAt: -42, groups: nil, name: "Alice", extra: ["k": [1, 2.5, nil]])
        let overriding: JSONObject = ["zz": "last", "name": "Bob", "groups": ["g"], "aud": 7]
        var expected: JSONObject = ["aud": "api://x", "iat": -42, "name": "Alice", "extra": ["k": [1, 2.5, nil]]]
        expected.merge(overriding)
        #expect(text(try ClaimsEncoder.encode(claims, overriding: overriding)) == JSONValue.object(expected).jsonString)
    }

    @Test("strings are escaped as JSONValue escapes them, '<' included")
    func escaping() throws {
        let tricky = "q\"b\\s\n\r\t\u{01}<script> é 🎉"
        let claims = Claims(audience: tricky, issuedAt: 0)
        let expected: JSONValue = ["aud": .string(tricky), "iat": 0]
        #expect(text(try ClaimsEncoder.encode(claims)) == expected.jsonString)
        #expect(!text(try ClaimsEncoder.encode(claims)).contains("<"))
    }
}
