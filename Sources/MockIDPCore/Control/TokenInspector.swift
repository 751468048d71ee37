import MockIDPJOSE

/// What the inspector page (`GET /_mockidp/`) shows that only Core knows: live browser sessions and tokens read
/// back with their signatures checked against this provider's keys.
package struct TokenInspector {
    let provider: IdentityProvider

    /// A token taken apart for people: its header and claims, and whether one of this provider's keys (the signing
    /// key, or one rotated out but still published) made its signature. Never throws: what cannot be read says why.
    package func inspect(_ token: String) -> JSONValue {
        let text = String(token.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        let jws: CompactJWS
        do {
            jws = try CompactJWS(text)
        } catch {
            return ["error": .string("not a signed JWT (header.payload.signature, each base64url): \(error)")]
        }
        let kid = jws.header["kid"]?.stringValue
        var signature: JSONObject = ["verified": false]
        if jws.algorithm != .rs256 {
            signature["reason"] = .string("the header's alg is \(jws.header["alg"]?.stringValue ?? "missing"); this server signs with RS256")
        } else if let key = provider.snapshot().signingKeys.first(where: { $0.keyID == kid }) {
            let verified = jws.verify(with: key.certificate.publicKey)
            signature["verified"] = .bool(verified)
            signature["kid"] = .string(key.keyID)
            if !verified { signature["reason"] = "the signature does not match the key the kid names" }
        } else {
            signature["reason"] = .string(kid.map { "no key of this server has the kid \($0)" } ?? "the header has no kid")
        }
        return ["header": .object(jws.header), "claims": .object(jws.payload), "signature": .object(signature)]
    }
}
