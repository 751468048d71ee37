/// Making compact JSON Web Signatures (RFC 7515 §7.1): `base64url(header).base64url(payload).base64url(signature)`.
package enum JSONWebSignature {
    /// Signs a JSON payload (JWT claims). The header is written in the order given (e.g. `typ`, `alg`, `kid`);
    /// its `alg` is set to `algorithm`, in place when present, otherwise right after `typ` (or first).
    package static func sign(
        header: JSONObject, payload: JSONObject, key: PrivateKey, algorithm: SignatureAlgorithm
    ) throws(OpenSSLError) -> String {
        try sign(header: header, payloadBytes: JSONValue.object(payload).serialized(), key: key, algorithm: algorithm)
    }

    /// Signs arbitrary payload bytes, with the header handled as in `sign(header:payload:key:algorithm:)`.
    package static func sign(
        header: JSONObject, payloadBytes: [UInt8], key: PrivateKey, algorithm: SignatureAlgorithm
    ) throws(OpenSSLError) -> String {
        try PreparedJWSHeader(header, algorithm: algorithm).sign(payload: payloadBytes, key: key)
    }

    /// `header` with `alg` equal to `algorithm`: a token must never claim an algorithm it was not signed with.
    static func withAlgorithm(_ algorithm: SignatureAlgorithm, in header: JSONObject) -> JSONObject {
        let alg = JSONValue.string(algorithm.rawValue)
        if header["alg"] != nil {
            var header = header
            header["alg"] = alg  // keeps the member's place
            return header
        }
        var result = JSONObject()
        if header["typ"] == nil { result["alg"] = alg }
        for (name, value) in header {
            result[name] = value
            if name == "typ" { result["alg"] = alg }
        }
        return result
    }
}

/// A JWS protected header serialized and base64url-encoded once, for signing many payloads with one key:
/// the header of every token a key signs is the same, so it is never rebuilt per token.
package struct PreparedJWSHeader: Sendable {
    /// The base64url text of the header, the first part of every compact JWS made with it.
    package let encoded: [UInt8]
    /// The algorithm the header names.
    package let algorithm: SignatureAlgorithm

    /// `header` with `alg` set to `algorithm` as `JSONWebSignature.sign` does, serialized and encoded.
    package init(_ header: JSONObject, algorithm: SignatureAlgorithm) {
        var encoded: [UInt8] = []
        Base64URL.append(JSONValue.object(JSONWebSignature.withAlgorithm(algorithm, in: header)).serialized(), to: &encoded)
        self.encoded = encoded
        self.algorithm = algorithm
    }

    /// The compact JWS of `payload` (JSON bytes) signed with `key`: one buffer, no intermediate strings.
    package func sign(payload: [UInt8], key: PrivateKey) throws(OpenSSLError) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(encoded.count + 1 + (payload.count + 2) / 3 * 4 + 1 + 344)
        out.append(contentsOf: encoded)
        out.append(UInt8(ascii: "."))
        try Self.appendSigned(payload, key: key, algorithm: algorithm, signingFrom: 0, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Completes a compact JWS whose header and dot `out` holds from `start`: appends `payload` in base64url, signs
    /// from `start` with `key`, and appends the dot and the signature.
    package static func appendSigned(_ payload: [UInt8], key: PrivateKey, algorithm: SignatureAlgorithm, signingFrom start: Int,
                                     to out: inout [UInt8]) throws(OpenSSLError) {
        Base64URL.append(payload, to: &out)
        let signature = try key.sign(out[start...], algorithm: algorithm)
        out.append(UInt8(ascii: "."))
        Base64URL.append(signature, to: &out)
    }
}
