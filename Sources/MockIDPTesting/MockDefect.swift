import MockIDPCore
import MockIDPJOSE

/// A defect a relying party must refuse, for `MockIdentityProvider.tamper(_:token:clientID:count:)` and
/// `probe`: the next matching tokens are correct in every way but this one (docs/relying-party-testing.md).
public typealias MockDefect = TokenDefect

/// A defect a service provider must refuse in a SAML Response, for `MockIdentityProvider.tamperSAML(_:clientID:count:)`:
/// the next Responses are correct in every way but this one (docs/saml.md, "Tamper defects").
public typealias MockSAMLDefect = SAMLDefect

/// Which tokens a tamper fault goes into.
public enum MockTamperedToken: String, CaseIterable, Sendable {
    /// ID tokens only.
    case id
    /// Access tokens only.
    case access
    /// Either.
    case all
}

extension MockIdentityProvider {
    /// The next `count` tokens of `token` kind (issued to `clientID`, when given) carry `defect`; every other part of
    /// them stays valid: `POST /_mockidp/faults` with `tamper`. The server refuses (400, `ControlAPIError`) a
    /// defect that cannot go into those tokens, such as `.badCodeHash` for access tokens.
    @discardableResult
    public func tamper(_ defect: MockDefect, token: MockTamperedToken = .all, clientID: String? = nil, count: Int = 1)
        async throws -> JSONValue {
        try await addTamperFault(defect.rawValue, token: token.rawValue, clientID: clientID, count: count)
    }

    /// The next `count` SAML Responses (to the app `clientID`, when given) carry `defect`; every other part of them
    /// stays valid: `POST /_mockidp/faults` with `tamper` and `"token": "saml"`.
    @discardableResult
    public func tamperSAML(_ defect: MockSAMLDefect, clientID: String? = nil, count: Int = 1) async throws -> JSONValue {
        try await addTamperFault(defect.rawValue, token: "saml", clientID: clientID, count: count)
    }

    private func addTamperFault(_ defect: String, token: String, clientID: String?, count: Int) async throws -> JSONValue {
        var body: JSONObject = ["tamper": .string(defect), "token": .string(token), "count": .int(count)]
        if let clientID { body["clientId"] = .string(clientID) }
        return try await control(.addFault, body: .object(body), expect: 201)
    }
}
