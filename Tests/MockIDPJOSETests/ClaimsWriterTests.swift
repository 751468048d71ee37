import MockIDPJOSE
import Testing

@Suite struct ClaimsWriterTests {
    struct Claims: WritableClaims {
        var audience: String
        var issuedAt: Int
        var groups: [String]?
        var name: String?
        var verified: Bool?

        func write(to claims: inout ClaimsWriter) {
            claims.member("aud", audience)
            claims.member("iat", issuedAt)
            claims.member("groups", groups)
            claims.member("name", name)
            claims.member("email_verified", verified)
        }
    }

    private func text(_ claims: Claims, overriding: JSONObject = JSONObject()) -> String {
        String(decoding: ClaimsWriter.json(of: claims, overriding: overriding), as: UTF8.self)
    }

    @Test("members come in the order the struct lists them, under their wire names, nil members left out")
    func order() {
        let claims = Claims(audience: "api://x", issuedAt: 1_800_000_000, groups: ["a", "b"], name: nil, verified: true)
        #expect(text(claims) == #"{"aud":"api://x","iat":1800000000,"groups":["a","b"],"email_verified":true}"#)
    }

    @Test("overrides replace members in place and the rest follow in order, exactly as setting them on a JSONObject does")
    func overridesMatchJSONObjectMerge() {
        let claims = Claims(audience: "api://x", issuedAt: -42, groups: nil, name: "Alice", verified: false)
        let overriding: JSONObject = ["zz": "last", "name": "Bob", "groups": ["g"], "aud": 7, "x": ["k": [1, 2.5, nil]]]
        var expected: JSONObject = ["aud": "api://x", "iat": -42, "name": "Alice", "email_verified": false]
        expected.merge(overriding)
        #expect(text(claims, overriding: overriding) == JSONValue.object(expected).jsonString)
    }

    @Test("strings are escaped as JSONValue escapes them, '<' included")
    func escaping() {
        let tricky = "q\"b\\s\n\r\t\u{01}<script> é 🎉"
        let claims = Claims(audience: tricky, issuedAt: 0)
        let expected: JSONValue = ["aud": .string(tricky), "iat": 0]
        #expect(text(claims) == expected.jsonString)
        #expect(!text(claims).contains("<"))
    }
}
