import MockIDPJOSE
import Testing

@Suite struct JSONWebSignatureTests {
    private func decodedHeader(_ token: String) throws -> String {
        let part = try #require(token.split(separator: ".", omittingEmptySubsequences: false).first)
        return String(decoding: try #require(Base64URL.decode(part)), as: UTF8.self)
    }

    @Test("signing RFC 7515 A.2's header and payload bytes reproduces the RFC's token exactly")
    func rfc7515Token() throws {
        let token = try JSONWebSignature.sign(
            header: ["alg": "RS256"], payloadBytes: RFC7515.payload, key: RFC7515.privateKey(), algorithm: .rs256)
        #expect(token == RFC7515.rs256SigningInput + "." + RFC7515.rs256Signature)
    }

    @Test("the header keeps the caller's member order")
    func headerOrder() throws {
        let token = try JSONWebSignature.sign(
            header: ["typ": "JWT", "alg": "RS256", "kid": "k1", "x5t": "k1"], payload: ["a": 1], key: TestKeys.rsa.get(),
            algorithm: .rs256)
        #expect(try decodedHeader(token) == #"{"typ":"JWT","alg":"RS256","kid":"k1","x5t":"k1"}"#)
    }

    @Test("a header without alg gets it right after typ, or first when there is no typ")
    func algInserted() throws {
        let key = try TestKeys.rsa.get()
        let withType = try JSONWebSignature.sign(header: ["typ": "JWT", "kid": "k"], payload: [:], key: key, algorithm: .rs256)
        #expect(try decodedHeader(withType) == #"{"typ":"JWT","alg":"RS256","kid":"k"}"#)
        let withoutType = try JSONWebSignature.sign(header: ["kid": "k"], payload: [:], key: key, algorithm: .ps256)
        #expect(try decodedHeader(withoutType) == #"{"alg":"PS256","kid":"k"}"#)
    }

    @Test("a header alg that disagrees with the algorithm used is corrected in place")
    func algCorrected() throws {
        let token = try JSONWebSignature.sign(
            header: ["typ": "JWT", "alg": "none", "kid": "k"], payload: [:], key: TestKeys.ec.get(), algorithm: .es256)
        #expect(try decodedHeader(token) == #"{"typ":"JWT","alg":"ES256","kid":"k"}"#)
        #expect(try CompactJWS(token).verify(with: TestKeys.ec.get().publicKey))
    }

    @Test("the payload is the compact JSON of the claims, in order")
    func payload() throws {
        let claims: JSONObject = ["aud": "api://x", "iss": "https://login.microsoftonline.com/t/v2.0", "exp": 1_700_000_000,
                                  "roles": ["Reader", "Writer"], "name": "Zoë </script>"]
        let token = try JSONWebSignature.sign(header: ["typ": "JWT"], payload: claims, key: TestKeys.rsa.get(), algorithm: .rs256)
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3)
        #expect(Base64URL.decode(parts[1]) == JSONValue.object(claims).serialized())
        #expect(try CompactJWS(token).payload == claims)
    }

    @Test("tokens use only the base64url alphabet, without padding")
    func alphabet() throws {
        for algorithm in SignatureAlgorithm.allCases {
            let (key, _) = try TestKeys.pair(for: algorithm)
            let token = try JSONWebSignature.sign(header: ["typ": "JWT"], payload: ["x": "???>>>"], key: key, algorithm: algorithm)
            #expect(token.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." })
        }
    }

    @Test("a key that does not fit the algorithm is an error, not a mislabelled token")
    func keyMismatch() throws {
        #expect(throws: OpenSSLError.self) {
            try JSONWebSignature.sign(header: [:], payload: [:], key: TestKeys.ec.get(), algorithm: .rs256)
        }
    }
}
