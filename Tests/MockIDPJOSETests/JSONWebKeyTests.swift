import MockIDPJOSE
import Testing

@Suite struct JSONWebKeyTests {
    static let signing = Result { () throws(OpenSSLError) -> (key: PrivateKey, certificate: Certificate) in
        let key = try TestKeys.rsa.get()
        return (key, try Certificate.selfSigned(key: key, commonName: "accounts.accesscontrol.windows.net", validityDays: 730))
    }

    @Test("Entra's signing key: kid equals x5t, the 27-character base64url SHA-1 of the certificate")
    func entraKeyID() throws {
        let (_, certificate) = try Self.signing.get()
        let jwk = try JSONWebKey.entraSigningKey(certificate: certificate, issuer: nil)
        #expect(jwk.keyID == jwk.x5t)
        #expect(jwk.keyID.count == 27)
        #expect(jwk.keyID == Base64URL.encode(Digest.sha1(certificate.der)))
        #expect(jwk.keyType == "RSA")
        #expect(jwk.use == "sig")
        #expect(jwk.exponent == "AQAB")
    }

    @Test("x5c holds the certificate's DER in standard base64")
    func x5c() throws {
        let (_, certificate) = try Self.signing.get()
        let jwk = try JSONWebKey.entraSigningKey(certificate: certificate, issuer: nil)
        #expect(jwk.x5c == [Base64URL.encodeStandard(certificate.der)])
        let decoded = try #require(Base64URL.decode(jwk.x5c[0]))
        #expect(try Certificate(der: decoded).der == certificate.der)
    }

    @Test("members are written in Entra's order: kty, use, kid, x5t, n, e, x5c, issuer")
    func memberOrder() throws {
        let (_, certificate) = try Self.signing.get()
        let jwk = try JSONWebKey.entraSigningKey(
            certificate: certificate, issuer: "https://login.microsoftonline.com/{tenantid}/v2.0")
        #expect(jwk.json.objectValue?.keys == ["kty", "use", "kid", "x5t", "n", "e", "x5c", "issuer"])
        #expect(jwk.json.jsonString.hasPrefix(#"{"kty":"RSA","use":"sig","kid":"\#(jwk.keyID)","x5t":"\#(jwk.keyID)","n":""#))
        #expect(jwk.json.jsonString.hasSuffix(#"],"issuer":"https://login.microsoftonline.com/{tenantid}/v2.0"}"#))
    }

    @Test("absent members are left out; B2C's nbf follows use")
    func b2cShape() {
        let jwk = JSONWebKey(keyType: "RSA", use: "sig", keyID: "X5eXk4xyojNFum1kl2Ytv8dlNP4-c57dO6QGTVBwaNk",
                             modulus: "tVKU", exponent: "AQAB", notBefore: 1_493_763_266)
        #expect(jwk.json.jsonString
            == #"{"kty":"RSA","use":"sig","nbf":1493763266,"kid":"X5eXk4xyojNFum1kl2Ytv8dlNP4-c57dO6QGTVBwaNk","n":"tVKU","e":"AQAB"}"#)
        #expect(JSONWebKey(keyType: "RSA", keyID: "k", modulus: "tVKU", exponent: "AQAB").json.jsonString
            == #"{"kty":"RSA","kid":"k","n":"tVKU","e":"AQAB"}"#)
    }

    @Test("JSON round-trips to an equal key")
    func jsonRoundTrip() throws {
        let (_, certificate) = try Self.signing.get()
        let jwk = try JSONWebKey.entraSigningKey(certificate: certificate, issuer: "https://issuer.example/v2.0")
        #expect(try JSONWebKey(json: JSONValue.parse(jwk.json.serialized())) == jwk)
        let b2c = JSONWebKey(keyType: "RSA", use: "sig", keyID: "k", modulus: "tVKU", exponent: "AQAB", notBefore: 5)
        #expect(try JSONWebKey(json: b2c.json) == b2c)
    }

    @Test("n and e give back a public key that verifies a token the private key signed")
    func publicKeyVerifiesToken() throws {
        let (key, certificate) = try Self.signing.get()
        let jwk = try JSONWebKey.entraSigningKey(certificate: certificate, issuer: nil)
        let token = try JSONWebSignature.sign(
            header: ["typ": "JWT", "kid": .string(jwk.keyID)], payload: ["sub": "alice"], key: key, algorithm: .rs256)
        let publicKey = try jwk.publicKey()
        #expect(try CompactJWS(token).verify(with: publicKey))
        #expect(publicKey.rsaComponents?.modulus == key.publicKey.rsaComponents?.modulus)
        #expect(try !CompactJWS(token).verify(with: TestKeys.otherRSA.get().publicKey))
    }

    @Test("RFC 7515 A.2's n and e verify the RFC's RS256 token")
    func rfcPublicKey() throws {
        let jwk = JSONWebKey(keyType: "RSA", keyID: "2010-12-29", modulus: RFC7515.n, exponent: RFC7515.e)
        let token = try CompactJWS(RFC7515.rs256SigningInput + "." + RFC7515.rs256Signature)
        #expect(token.verify(with: try jwk.publicKey()))
    }

    @Test("a certificate with an EC key has no RSA JSON Web Key")
    func ecCertificate() throws {
        let certificate = try Certificate.selfSigned(key: TestKeys.ec.get(), commonName: "ec", validityDays: 1)
        #expect(throws: OpenSSLError.self) { try JSONWebKey.entraSigningKey(certificate: certificate, issuer: nil) }
    }

    @Test("malformed keys are refused with the reason", arguments: [
        (#"[]"#, "a JSON Web Key must be a JSON object"),
        (#"{"kid":"k","n":"AQAB","e":"AQAB"}"#, #"the JSON Web Key has no "kty""#),
        (#"{"kty":"EC","kid":"k","x":"AA","y":"AA"}"#, #"unsupported JSON Web Key type "EC""#),
        (#"{"kty":"RSA","n":"AQAB","e":"AQAB"}"#, #"the JSON Web Key has no "kid""#),
        (#"{"kty":"RSA","kid":"k","e":"AQAB"}"#, #"the JSON Web Key has no "n""#),
        (#"{"kty":"RSA","kid":7,"n":"AQAB","e":"AQAB"}"#, #"the JSON Web Key's "kid" is not a string"#),
        (#"{"kty":"RSA","kid":"k","n":"AQ+B","e":"AQAB"}"#, #"the JSON Web Key's "n" is not base64url"#),
        (#"{"kty":"RSA","kid":"k","n":"AQAB","e":"AQAB=="}"#, #"the JSON Web Key's "e" is not base64url"#),
        (#"{"kty":"RSA","kid":"k","n":"","e":"AQAB"}"#, #"the JSON Web Key's "n" is not base64url"#),
        (#"{"kty":"RSA","kid":"k","n":"AQAB","e":"AQAB","x5c":"MII"}"#, #"the JSON Web Key's "x5c" is not an array"#),
        (#"{"kty":"RSA","kid":"k","n":"AQAB","e":"AQAB","x5c":[1]}"#, #"the JSON Web Key's "x5c" holds a non-string"#),
        (#"{"kty":"RSA","kid":"k","n":"AQAB","e":"AQAB","nbf":"1"}"#, #"the JSON Web Key's "nbf" is not an integer"#),
    ])
    func malformed(text: String, reason: String) throws {
        let error = try #require(throws: JOSEError.self) { try JSONWebKey(json: JSONValue.parse(text)) }
        #expect(error.reason == reason)
    }

    @Test("unknown members such as alg and key_ops are ignored")
    func unknownMembers() throws {
        let jwk = try JSONWebKey(json: JSONValue.parse(#"{"kty":"RSA","alg":"RS256","key_ops":["verify"],"kid":"k","n":"AQAB","e":"AQAB"}"#))
        #expect(jwk == JSONWebKey(keyType: "RSA", keyID: "k", modulus: "AQAB", exponent: "AQAB"))
    }
}
