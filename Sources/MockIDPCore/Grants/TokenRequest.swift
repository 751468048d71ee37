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
///
/// A token request has a handful of parameters, and each is asked for a few times: they are searched in order, which
/// costs less than hashing each name into a dictionary and again for each question. A form with more than
/// `searchedInOrder` of them (only a client that means harm sends that many) gets a dictionary, so neither the
/// duplicate check nor a question grows with the square of their number.
struct TokenParameters: Sendable {
    private let pairs: [(name: String, value: String)]
    private let index: [String: String]?
    static let searchedInOrder = 16

    init(_ request: TokenRequest) throws(OAuthError) {
        let pairs = request.parameters
        if pairs.count <= Self.searchedInOrder {
            for i in pairs.indices.dropFirst() {
                let name = pairs[i].name
                for j in 0..<i where pairs[j].name == name { throw .duplicateParameter(name) }
            }
            index = nil
        } else {
            var values = [String: String](minimumCapacity: pairs.count)
            for (name, value) in pairs {
                guard values.updateValue(value, forKey: name) == nil else { throw .duplicateParameter(name) }
            }
            index = values
        }
        self.pairs = pairs
    }

    subscript(name: String) -> String? {
        let found: String?
        if let index {
            found = index[name]
        } else {
            found = pairs.first { $0.name == name }?.value
        }
        guard let v = found, !v.isEmpty else { return nil }
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
    /// Set by the client-credentials grant alone, when the edge may answer the same request again from this answer
    /// (`AppTokenFacts`); nil for every other answer.
    package var appToken: AppTokenFacts?

    package init(body: JSONValue, appToken: AppTokenFacts? = nil) {
        self.body = body
        self.appToken = appToken
    }
}
