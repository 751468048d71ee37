/// A JSON Web Key Set (RFC 7517 §5): what the `keys` endpoints serve, `{"keys":[…]}`.
public struct JSONWebKeySet: Sendable, Equatable {
    /// The keys, in the order they are published.
    public var keys: [JSONWebKey]

    /// A set of `keys`.
    public init(keys: [JSONWebKey]) { self.keys = keys }

    /// `{"keys":[…]}`.
    public var json: JSONValue { ["keys": .array(keys.map(\.json))] }

    /// Reads a key set. Keys of a type other than RSA are skipped, as RFC 7517 §5 asks; a malformed RSA key
    /// is an error.
    public init(json: JSONValue) throws(JOSEError) {
        guard let members = json["keys"]?.arrayValue else {
            throw JOSEError(reason: "a JSON Web Key Set must be an object with a \"keys\" array")
        }
        keys = []
        for member in members {
            guard let keyType = member["kty"]?.stringValue else { throw JOSEError(reason: "a key in the set has no \"kty\"") }
            if keyType != "RSA" { continue }
            keys.append(try JSONWebKey(json: member))
        }
    }
}
