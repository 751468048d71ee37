import MockIDPJOSE

/// A request to the token endpoint, as the HTTP layer decoded it.
package struct TokenRequest: Sendable {
    /// The tenant segment of the path (`common`, a GUID, a domain).
    package var tenant: String
    package var version: ProtocolVersion
    /// The form parameters in order, duplicates kept (Entra rejects duplicates).
    package var parameters: [(name: String, value: String)]
    /// Client credentials from `Authorization: Basic` (client_secret_basic), when sent.
    package var basicCredentials: (clientID: String, secret: String)?
    /// The B2C policy named in the path or by `?p=`, and how.
    package var policy: String?
    package var policyForm: B2CPolicyForm

    package init(tenant: String, version: ProtocolVersion = .v2, parameters: [(name: String, value: String)],
                basicCredentials: (clientID: String, secret: String)? = nil, policy: String? = nil,
                policyForm: B2CPolicyForm = .path) {
        self.policy = policy
        self.policyForm = policyForm
        self.tenant = tenant
        self.version = version
        self.parameters = parameters
        self.basicCredentials = basicCredentials
    }
}

/// The checked parameters of a token request: each name once.
struct TokenParameters: Sendable {
    private let values: [String: String]

    init(_ request: TokenRequest) throws(OAuthError) {
        // Sized once and each name hashed once: a token request has a handful of parameters.
        var values = [String: String](minimumCapacity: request.parameters.count)
        for (name, value) in request.parameters {
            guard values.updateValue(value, forKey: name) == nil else { throw .duplicateParameter(name) }
        }
        self.values = values
    }

    subscript(name: String) -> String? {
        guard let v = values[name], !v.isEmpty else { return nil }
        return v
    }

    func required(_ name: String) throws(OAuthError) -> String {
        guard let v = self[name] else { throw .missingParameter(name) }
        return v
    }
}

/// A successful token response: the JSON body to send.
package struct TokenResponse: Sendable {
    package var body: JSONValue
}
