import MockIDPJOSE

/// A defect a relying party must refuse, for `MockIdentityProvider.tamper(_:token:clientID:count:)`: the next
/// matching tokens are correct in every way but this one (README, "Relying-party testing", defines each).
public enum MockDefect: String, CaseIterable, Sendable {
    /// The RS256 signature with one bit flipped.
    case badSignature = "bad-signature"
    /// `alg: none` and an empty signature.
    case algNone = "alg-none"
    /// HS256, keyed with the published key's public PEM (key confusion).
    case hs256PublicKey = "hs256-public-key"
    /// A `kid` that names no published key.
    case unknownKeyID = "unknown-kid"
    /// No `kid` in the header.
    case noKeyID = "no-kid"
    /// `iss` on another host.
    case wrongIssuer = "wrong-issuer"
    /// `aud` of no app.
    case wrongAudience = "wrong-audience"
    /// Another tenant's `tid` and issuer, validly signed.
    case wrongTenant = "wrong-tenant"
    /// `exp` ten minutes in the past.
    case expired
    /// `nbf` ten minutes in the future.
    case notYetValid = "not-yet-valid"
    /// `iat` ten minutes in the future.
    case issuedInFuture = "issued-in-future"
    /// No `iat`.
    case noIssuedAt = "no-iat"
    /// No `sub`.
    case noSubject = "no-sub"
    /// Another `nonce` (ID tokens with a nonce).
    case wrongNonce = "wrong-nonce"
    /// No `nonce` (ID tokens with a nonce).
    case noNonce = "no-nonce"
    /// A `c_hash` of nothing issued (hybrid ID tokens).
    case badCodeHash = "bad-c_hash"
    /// An `at_hash` of nothing issued (ID tokens issued with an access token).
    case badAccessTokenHash = "bad-at_hash"
    /// Another client as `azp` (v1 access tokens: `appid`).
    case wrongAuthorizedParty = "wrong-azp"
}

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
        var body: JSONObject = ["tamper": .string(defect.rawValue), "token": .string(token.rawValue), "count": .int(count)]
        if let clientID { body["clientId"] = .string(clientID) }
        return try await control(.addFault, body: .object(body), expect: 201)
    }
}
