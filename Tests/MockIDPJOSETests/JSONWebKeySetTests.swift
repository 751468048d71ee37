import MockIDPJOSE
import Testing

@Suite struct JSONWebKeySetTests {
    private let first = JSONWebKey(keyType: "RSA", use: "sig", keyID: "a", x5t: "a", modulus: "AQAB", exponent: "AQAB",
                                   x5c: ["MIIB"], issuer: "https://login.microsoftonline.com/{tenantid}/v2.0")
    private let second = JSONWebKey(keyType: "RSA", use: "sig", keyID: "b", modulus: "AQAC", exponent: "AQAB")

    @Test("the set is {\"keys\":[…]} with the keys in order")
    func json() {
        let set = JSONWebKeySet(keys: [first, second])
        #expect(set.json.jsonString == #"{"keys":["# + first.json.jsonString + "," + second.json.jsonString + "]}")
        #expect(JSONWebKeySet(keys: []).json.jsonString == #"{"keys":[]}"#)
    }

    @Test("JSON round-trips to an equal set")
    func roundTrip() throws {
        let set = JSONWebKeySet(keys: [first, second])
        #expect(try JSONWebKeySet(json: JSONValue.parse(set.json.serialized())) == set)
    }

    @Test("keys of types other than RSA are skipped, as RFC 7517 §5 asks")
    func skipsOtherTypes() throws {
        let text = #"{"keys":[{"kty":"EC","crv":"P-256","x":"AA","y":"AA","kid":"ec"},"# + second.json.jsonString + "]}"
        #expect(try JSONWebKeySet(json: JSONValue.parse(text)).keys == [second])
    }

    @Test("a document without a keys array, or with a malformed RSA key, is refused", arguments: [
        #"{}"#, #"{"keys":{}}"#, #"[]"#, #"{"keys":[{"kid":"x"}]}"#, #"{"keys":[{"kty":"RSA","kid":"k","n":"A","e":"AQAB"}]}"#,
    ])
    func malformed(text: String) {
        #expect(throws: JOSEError.self) { try JSONWebKeySet(json: JSONValue.parse(text)) }
    }
}
