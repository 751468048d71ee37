/// Making compact JSON Web Signatures (RFC 7515 §7.1): `base64url(header).base64url(payload).base64url(signature)`.
public enum JSONWebSignature {
    /// Signs a JSON payload (JWT claims). The header is written in the order given (e.g. `typ`, `alg`, `kid`);
    /// its `alg` is set to `algorithm`, in place when present, otherwise right after `typ` (or first).
    public static func sign(
        header: JSONObject, payload: JSONObject, key: PrivateKey, algorithm: SignatureAlgorithm
    ) throws(OpenSSLError) -> String {
        try sign(header: header, payloadBytes: JSONValue.object(payload).serialized(), key: key, algorithm: algorithm)
    }

    /// Signs arbitrary payload bytes, with the header handled as in `sign(header:payload:key:algorithm:)`.
    public static func sign(
        header: JSONObject, payloadBytes: [UInt8], key: PrivateKey, algorithm: SignatureAlgorithm
    ) throws(OpenSSLError) -> String {
        let headerBytes = JSONValue.object(withAlgorithm(algorithm, in: header)).serialized()
        var signingInput = Array(Base64URL.encode(headerBytes).utf8)
        signingInput.append(UInt8(ascii: "."))
        signingInput.append(contentsOf: Base64URL.encode(payloadBytes).utf8)
        let signature = try key.sign(signingInput, algorithm: algorithm)
        signingInput.append(UInt8(ascii: "."))
        signingInput.append(contentsOf: Base64URL.encode(signature).utf8)
        return String(decoding: signingInput, as: UTF8.self)
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
