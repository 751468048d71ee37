import MockIDP
import MockIDPJOSE

extension MockIdentityProvider {
    /// Client credentials (a daemon): `scope` is `{resource}/.default`. Throws `TokenRequestError` with
    /// Entra's error when refused.
    public func clientCredentialsToken(tenant: String, clientID: String, secret: String, scope: String) async throws -> IssuedTokens {
        try await token(tenant: tenant, parameters: [
            ("grant_type", "client_credentials"), ("client_id", clientID), ("client_secret", secret), ("scope", scope),
        ])
    }

    /// Resource owner password credentials (ROPC): a user's username and password, for a public client (or a
    /// confidential one with `clientSecret`). Add `openid` to `scopes` for an ID token, `offline_access` for a
    /// refresh token.
    public func passwordToken(tenant: String, clientID: String, username: String, password: String, scopes: [String],
                              clientSecret: String? = nil) async throws -> IssuedTokens {
        var parameters = [("grant_type", "password"), ("client_id", clientID), ("username", username),
                          ("password", password), ("scope", scopes.joined(separator: " "))]
        if let clientSecret { parameters.append(("client_secret", clientSecret)) }
        return try await token(tenant: tenant, parameters: parameters)
    }

    /// Redeems a refresh token for new tokens.
    public func refreshedToken(tenant: String, clientID: String, refreshToken: String, scopes: [String],
                               clientSecret: String? = nil) async throws -> IssuedTokens {
        var parameters = [("grant_type", "refresh_token"), ("client_id", clientID), ("refresh_token", refreshToken),
                          ("scope", scopes.joined(separator: " "))]
        if let clientSecret { parameters.append(("client_secret", clientSecret)) }
        return try await token(tenant: tenant, parameters: parameters)
    }

    /// Any request to the v2 token endpoint of `tenant`, as form parameters in order. The tokens of the answer
    /// are verified against the tenant's key set before their claims are returned.
    public func token(tenant: String, parameters: [(String, String)]) async throws -> IssuedTokens {
        let reply = try await client.postForm(tokenEndpoint(tenant: tenant), parameters)
        guard let json = reply.json.objectValue else {
            throw MockIDPError("the token endpoint answered \(reply.status) without a JSON object: \(reply.text.prefix(200))")
        }
        guard reply.status == 200 else { throw TokenRequestError(status: reply.status, body: json) }
        guard let accessToken = json["access_token"]?.stringValue else {
            throw MockIDPError("the token response has no access_token: \(JSONValue.object(json).jsonString)")
        }
        let keys = try await keySet(tenant: tenant)
        let idToken = json["id_token"]?.stringValue
        return IssuedTokens(
            accessToken: accessToken, idToken: idToken, refreshToken: json["refresh_token"]?.stringValue,
            claims: try Self.verifiedClaims(of: accessToken, keys: keys),
            idTokenClaims: try idToken.map { token throws in try Self.verifiedClaims(of: token, keys: keys) },
            response: json)
    }

    /// The claims of `token` once its RS256 signature verifies with a key of the tenant's published key set
    /// (fetched over HTTP). Only the signature is checked: assert `aud`, `iss` and `exp` in your test.
    public func verifiedClaims(of token: String, tenant: String) async throws -> JSONObject {
        try Self.verifiedClaims(of: token, keys: try await keySet(tenant: tenant))
    }

    /// The tenant's published key set.
    public func keySet(tenant: String) async throws -> JSONWebKeySet {
        let reply = try await client.get(keySetURL(tenant: tenant))
        guard reply.status == 200, let json = try? JSONValue.parse(reply.body) else {
            throw MockIDPError("the key set of \(tenant) answered \(reply.status): \(reply.text.prefix(200))")
        }
        return try JSONWebKeySet(json: json)
    }

    static func verifiedClaims(of token: String, keys: JSONWebKeySet) throws -> JSONObject {
        let jws = try CompactJWS(token)
        guard let kid = jws.header["kid"]?.stringValue, let key = keys.keys.first(where: { $0.keyID == kid }) else {
            throw MockIDPError("no key in the published key set has the token's kid")
        }
        guard jws.verify(with: try key.publicKey()) else { throw MockIDPError("the token's signature does not verify") }
        return jws.payload
    }
}
