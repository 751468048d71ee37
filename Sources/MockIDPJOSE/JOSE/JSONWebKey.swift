/// An RSA public key as a JSON Web Key (RFC 7517), in the shape Entra publishes in its key sets:
/// `kty`, `use`, `kid`, `x5t`, `n`, `e`, `x5c` and the non-standard `issuer`; B2C keys add `nbf` instead.
public struct JSONWebKey: Sendable, Equatable {
    /// `kty`: always `RSA` here.
    public var keyType: String
    /// `use`: `sig` for signing keys.
    public var use: String?
    /// `kid`: what token headers name the key by. Entra uses the `x5t` value.
    public var keyID: String
    /// `x5t`: base64url SHA-1 thumbprint of the certificate's DER.
    public var x5t: String?
    /// `n`: the modulus, base64url.
    public var modulus: String
    /// `e`: the public exponent, base64url (`AQAB` for 65537).
    public var exponent: String
    /// `x5c`: the certificate chain, each standard base64 (with `+`, `/`, `=`) DER, the key's own first.
    public var x5c: [String]
    /// `issuer`: Entra's non-standard binding of a key to an issuer (`…/{tenantid}/v2.0`).
    public var issuer: String?
    /// `nbf`: when the key became valid, Unix seconds (B2C publishes it).
    public var notBefore: Int?

    /// A key from its members; absent members are nil (or empty, for `x5c`) and are left out of the JSON.
    public init(
        keyType: String, use: String? = nil, keyID: String, x5t: String? = nil, modulus: String, exponent: String,
        x5c: [String] = [], issuer: String? = nil, notBefore: Int? = nil
    ) {
        self.keyType = keyType
        self.use = use
        self.keyID = keyID
        self.x5t = x5t
        self.modulus = modulus
        self.exponent = exponent
        self.x5c = x5c
        self.issuer = issuer
        self.notBefore = notBefore
    }

    /// The key for a signing certificate, as Entra publishes it: `kid` and `x5t` are both the base64url SHA-1
    /// thumbprint of the DER (27 characters), `x5c` holds the certificate, `use` is `sig`.
    /// Throws when the certificate's key is not RSA.
    package static func entraSigningKey(certificate: Certificate, issuer: String?) throws(OpenSSLError) -> JSONWebKey {
        guard let (modulus, exponent) = certificate.publicKey.rsaComponents else {
            throw OpenSSLError(operation: "JSONWebKey.entraSigningKey", reasons: ["the certificate's key is not RSA"])
        }
        let thumbprint = Base64URL.encode(certificate.sha1Thumbprint)
        return JSONWebKey(
            keyType: "RSA", use: "sig", keyID: thumbprint, x5t: thumbprint,
            modulus: Base64URL.encode(modulus), exponent: Base64URL.encode(exponent),
            x5c: [Base64URL.encodeStandard(certificate.der)], issuer: issuer)
    }

    /// The JSON object, members in Entra's order: `kty`, `use`, `nbf`, `kid`, `x5t`, `n`, `e`, `x5c`, `issuer`;
    /// absent ones are left out.
    public var json: JSONValue {
        var object = JSONObject()
        object["kty"] = .string(keyType)
        if let use { object["use"] = .string(use) }
        if let notBefore { object["nbf"] = .int(notBefore) }
        object["kid"] = .string(keyID)
        if let x5t { object["x5t"] = .string(x5t) }
        object["n"] = .string(modulus)
        object["e"] = .string(exponent)
        if !x5c.isEmpty { object["x5c"] = .array(x5c.map { .string($0) }) }
        if let issuer { object["issuer"] = .string(issuer) }
        return .object(object)
    }

    /// Reads an RSA key from a JWK object. `kty` must be `RSA`, `kid`, `n` and `e` present, and `n` and `e`
    /// valid base64url; other members are ignored (RFC 7517 §4).
    public init(json: JSONValue) throws(JOSEError) {
        guard let object = json.objectValue else { throw JOSEError(reason: "a JSON Web Key must be a JSON object") }
        func string(_ name: String, required: Bool) throws(JOSEError) -> String? {
            switch object[name] {
            case .string(let value)?: return value
            case nil where !required: return nil
            case nil: throw JOSEError(reason: "the JSON Web Key has no \"\(name)\"")
            default: throw JOSEError(reason: "the JSON Web Key's \"\(name)\" is not a string")
            }
        }
        let keyType = try string("kty", required: true) ?? ""
        guard keyType == "RSA" else { throw JOSEError(reason: "unsupported JSON Web Key type \"\(keyType)\"") }
        self.keyType = keyType
        use = try string("use", required: false)
        keyID = try string("kid", required: true) ?? ""
        x5t = try string("x5t", required: false)
        modulus = try string("n", required: true) ?? ""
        exponent = try string("e", required: true) ?? ""
        for (name, value) in [("n", modulus), ("e", exponent)] {
            guard !value.isEmpty, Base64URL.isURLSafeUnpadded(value), Base64URL.decode(value) != nil else {
                throw JOSEError(reason: "the JSON Web Key's \"\(name)\" is not base64url")
            }
        }
        switch object["x5c"] {
        case nil: x5c = []
        case .array(let values)?:
            x5c = []
            for value in values {
                guard let text = value.stringValue else { throw JOSEError(reason: "the JSON Web Key's \"x5c\" holds a non-string") }
                x5c.append(text)
            }
        default: throw JOSEError(reason: "the JSON Web Key's \"x5c\" is not an array")
        }
        issuer = try string("issuer", required: false)
        switch object["nbf"] {
        case nil: notBefore = nil
        case let value?:
            guard let seconds = value.intValue else { throw JOSEError(reason: "the JSON Web Key's \"nbf\" is not an integer") }
            notBefore = seconds
        }
    }

    /// The RSA public key `n` and `e` describe.
    public func publicKey() throws(OpenSSLError) -> PublicKey {
        guard let n = Base64URL.decode(modulus), let e = Base64URL.decode(exponent) else {
            throw OpenSSLError(operation: "JSONWebKey.publicKey", reasons: ["\"n\" or \"e\" is not base64url"])
        }
        return try PublicKey.rsa(modulus: n, exponent: e)
    }
}
