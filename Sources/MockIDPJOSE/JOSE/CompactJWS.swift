/// A compact JWS taken apart but NOT yet verified: read the header to pick the key, then `verify(with:)`.
/// Never trust `payload` before `verify` returned true.
package struct CompactJWS: Sendable {
    /// Tokens longer than this are refused before any decoding, so hostile input costs little. Entra's own
    /// tokens stay far below it (a few KiB even with many groups).
    package static let maximumLength = 64 * 1024

    /// The protected header (`alg`, `kid`, `x5t`, `typ`, …).
    package var header: JSONObject
    /// The claims.
    package var payload: JSONObject
    /// The bytes the signature covers: the first two parts with the dot between them, as received.
    package var signingInput: [UInt8]
    /// The decoded signature.
    package var signature: [UInt8]

    /// Splits and decodes `compact`: exactly three base64url parts (no padding), the first two JSON objects.
    package init(_ compact: some StringProtocol) throws(JOSEError) {
        let bytes = Array(compact.utf8)
        guard bytes.count <= Self.maximumLength else {
            throw JOSEError(reason: "the token is longer than \(Self.maximumLength) bytes")
        }
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw JOSEError(reason: "the token does not have three parts") }
        header = try Self.object(parts[0], "header")
        payload = try Self.object(parts[1], "payload")
        guard let signature = Self.decode(parts[2]), !signature.isEmpty else {
            throw JOSEError(reason: "the token's signature is not base64url")
        }
        self.signature = signature
        signingInput = Array(bytes[..<parts[1].endIndex])
    }

    /// The header's `alg`, when it names an algorithm this module supports; nil otherwise (`none` included).
    package var algorithm: SignatureAlgorithm? { header["alg"]?.stringValue.flatMap(SignatureAlgorithm.init(rawValue:)) }

    /// Whether `key` signed this token with the algorithm its header names. False for unsupported or missing
    /// `alg`, for a key that does not fit the algorithm, and for any `crit` header (no extension is understood
    /// here, RFC 7515 §4.1.11).
    package func verify(with key: PublicKey) -> Bool {
        guard let algorithm, header["crit"] == nil else { return false }
        return key.verify(signature: signature, for: signingInput, algorithm: algorithm)
    }

    private static func decode(_ part: ArraySlice<UInt8>) -> [UInt8]? {
        let text = String(decoding: part, as: UTF8.self)
        guard Base64URL.isURLSafeUnpadded(text) else { return nil }
        return Base64URL.decode(text)
    }

    private static func object(_ part: ArraySlice<UInt8>, _ name: String) throws(JOSEError) -> JSONObject {
        guard let bytes = decode(part), !bytes.isEmpty else { throw JOSEError(reason: "the token's \(name) is not base64url") }
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            throw JOSEError(reason: "the token's \(name) is not JSON: \(error.reason)")
        }
        guard let object = value.objectValue else { throw JOSEError(reason: "the token's \(name) is not a JSON object") }
        return object
    }
}
