import MockIDPJOSE
import Testing

@Suite struct CompactJWSTests {
    private func token(_ algorithm: SignatureAlgorithm = .rs256, header: JSONObject = ["typ": "JWT", "kid": "k"]) throws -> String {
        try JSONWebSignature.sign(header: header, payload: ["sub": "alice", "exp": 1_700_000_000],
                                  key: TestKeys.pair(for: algorithm).signer, algorithm: algorithm)
    }

    private func replacingPart(_ index: Int, of token: String, with part: String) -> String {
        var parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        parts[index] = part
        return parts.joined(separator: ".")
    }

    @Test("sign, parse and verify round-trip for every algorithm", arguments: SignatureAlgorithm.allCases)
    func roundTrip(algorithm: SignatureAlgorithm) throws {
        let text = try token(algorithm)
        let jws = try CompactJWS(text)
        #expect(jws.algorithm == algorithm)
        #expect(jws.header.keys == ["typ", "alg", "kid"])
        #expect(jws.payload["sub"] == "alice")
        let lastDot = try #require(text.lastIndex(of: "."))
        #expect(jws.signingInput == Array(text[..<lastDot].utf8))
        #expect(Base64URL.encode(jws.signature) == String(text[text.index(after: lastDot)...]))
        #expect(jws.verify(with: try TestKeys.pair(for: algorithm).signer.publicKey))
        #expect(!jws.verify(with: try TestKeys.pair(for: algorithm).stranger.publicKey))
    }

    @Test("parsing accepts a Substring")
    func substring() throws {
        let text = try token()
        #expect(try CompactJWS(("  " + text).dropFirst(2)).verify(with: TestKeys.rsa.get().publicKey))
    }

    @Test("RFC 7515 A.2's and A.3's tokens parse and verify")
    func rfcTokens() throws {
        let rs256 = try CompactJWS(RFC7515.rs256SigningInput + "." + RFC7515.rs256Signature)
        #expect(rs256.algorithm == .rs256)
        #expect(rs256.payload["iss"] == "joe")
        #expect(rs256.payload["http://example.com/is_root"] == true)
        #expect(rs256.verify(with: try RFC7515.privateKey().publicKey))
        let es256 = try CompactJWS(RFC7515.es256Token)
        #expect(es256.verify(with: try PublicKey(pem: RFC7515.es256PublicKeyPEM())))
        #expect(!es256.verify(with: try RFC7515.privateKey().publicKey))
    }

    @Test("a tampered payload does not verify")
    func tamperedPayload() throws {
        let text = try token()
        let forged = Base64URL.encode(JSONValue.object(["sub": "mallory", "exp": 1_700_000_000]).serialized())
        let jws = try CompactJWS(replacingPart(1, of: text, with: forged))
        #expect(jws.payload["sub"] == "mallory")
        #expect(!jws.verify(with: try TestKeys.rsa.get().publicKey))
    }

    @Test("alg none is never accepted, not even with an empty signature")
    func algNone() throws {
        let text = try token()
        let header = Base64URL.encode(Array(#"{"typ":"JWT","alg":"none"}"#.utf8))
        let withSignature = try CompactJWS(replacingPart(0, of: text, with: header))
        #expect(withSignature.algorithm == nil)
        #expect(!withSignature.verify(with: try TestKeys.rsa.get().publicKey))
        #expect(throws: JOSEError.self) { try CompactJWS(replacingPart(2, of: replacingPart(0, of: text, with: header), with: "")) }
    }

    @Test("an algorithm swapped in the header does not verify", arguments: ["HS256", "RS384", "PS256", "ES256", "RS256 ", "rs256"])
    func swappedAlgorithm(alg: String) throws {
        let text = try token()
        let header = Base64URL.encode(JSONValue.object(["typ": "JWT", "alg": .string(alg), "kid": "k"]).serialized())
        let jws = try CompactJWS(replacingPart(0, of: text, with: header))
        #expect(!jws.verify(with: try TestKeys.rsa.get().publicKey))
    }

    @Test("a header without alg has no algorithm and does not verify")
    func missingAlgorithm() throws {
        let text = try token()
        let header = Base64URL.encode(Array(#"{"typ":"JWT"}"#.utf8))
        let jws = try CompactJWS(replacingPart(0, of: text, with: header))
        #expect(jws.algorithm == nil)
        #expect(!jws.verify(with: try TestKeys.rsa.get().publicKey))
    }

    @Test("a crit header is not understood, so the token does not verify even with a good signature")
    func criticalHeader() throws {
        let text = try token(header: ["typ": "JWT", "crit": ["exp"], "exp": 1])
        #expect(!(try CompactJWS(text).verify(with: TestKeys.rsa.get().publicKey)))
    }

    @Test("anything but exactly three parts is refused", arguments: [0, 1, 3])
    func partCount(dots: Int) throws {
        let text = try token()
        let parts = text.split(separator: ".").map(String.init)
        let candidate = dots == 3 ? text + ".e30" : parts.prefix(dots + 1).joined(separator: ".")
        let error = try #require(throws: JOSEError.self) { try CompactJWS(candidate) }
        #expect(error.reason == "the token does not have three parts")
    }

    @Test("parts that are not base64url JSON objects are refused", arguments: [
        ("", "eyJhIjoxfQ", "AAAA"), ("e30=", "eyJhIjoxfQ", "AAAA"), ("eyJhIjoxfQ", "e+30", "AAAA"),
        ("eyJhIjoxfQ", "eyJhIjoxfQ", "AA/A"), ("W10", "eyJhIjoxfQ", "AAAA"), ("eyJhIjoxfQ", "IngiCg", "AAAA"),
        ("eyJh", "eyJhIjoxfQ", "AAAA"), ("eyJhIjoxfQ", "eyJhIjoxfQ", ""), ("eyJhIjoxfQ", "", "AAAA"),
    ])
    func malformedParts(header: String, payload: String, signature: String) {
        #expect(throws: JOSEError.self) { try CompactJWS("\(header).\(payload).\(signature)") }
    }

    @Test("input over 64 KiB is refused before it is decoded")
    func oversized() throws {
        let big = String(repeating: "A", count: CompactJWS.maximumLength)
        let error = try #require(throws: JOSEError.self) { try CompactJWS("eyJhIjoxfQ.\(big).AAAA") }
        #expect(error.reason.contains("longer than"))
        let bomb = String(repeating: ".", count: 100_000)
        #expect(throws: JOSEError.self) { try CompactJWS(bomb) }
    }

    @Test("a token just under the limit is accepted")
    func nearLimit() throws {
        let claims: JSONObject = ["pad": .string(String(repeating: "x", count: 40_000))]
        let text = try JSONWebSignature.sign(header: ["typ": "JWT"], payload: claims, key: TestKeys.rsa.get(), algorithm: .rs256)
        #expect(text.utf8.count < CompactJWS.maximumLength)
        #expect(try CompactJWS(text).verify(with: TestKeys.rsa.get().publicKey))
    }
}
