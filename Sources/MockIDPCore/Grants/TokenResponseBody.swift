import MockIDPJOSE

/// The body of Entra's token response (docs/entra-behaviour.md, "Token responses"): each member named once, in
/// `json`, in Entra's order. v2 writes its numbers as numbers; v1 (ADAL's endpoint) writes them as strings and adds
/// `expires_on`, `not_before` and `resource`.
struct EntraTokenBody {
    var version: ProtocolVersion
    /// The requested scopes (v2) or the granted ones (v1); nil for client credentials, whose answer has none.
    var scope: String?
    var issuedAt: Int
    var lifetime: Int
    /// v1: the API the token is for.
    var resource: String?
    var accessToken: String
    var refreshToken: String?
    var idToken: String?
    var clientInfo: String?
    /// Entra: family apps learn of their family from this member; MSAL then files the refresh token under it.
    var foci = false

    var json: JSONValue {
        var body = JSONObject()
        body["token_type"] = "Bearer"
        if let scope { body["scope"] = .string(scope) }
        switch version {
        case .v2:
            body["expires_in"] = .int(lifetime)
            body["ext_expires_in"] = .int(lifetime)
        case .v1:
            body["expires_in"] = .string(String(lifetime))
            body["ext_expires_in"] = .string(String(lifetime))
            body["expires_on"] = .string(String(issuedAt + lifetime))
            body["not_before"] = .string(String(issuedAt))
            if let resource { body["resource"] = .string(resource) }
        }
        body["access_token"] = .string(accessToken)
        if let refreshToken { body["refresh_token"] = .string(refreshToken) }
        if let idToken { body["id_token"] = .string(idToken) }
        if let clientInfo { body["client_info"] = .string(clientInfo) }
        if foci { body["foci"] = "1" }
        return .object(body)
    }
}

/// The body of a B2C user flow's token response (`TokenCall.b2cTokenResponse` says which members come when), each
/// member named once, in B2C's order.
struct B2CTokenBody {
    var accessToken: String?
    var idToken: String?
    var issuedAt: Int
    var lifetime: Int
    /// With an access token: the API it is for (its client ID).
    var resource: String?
    var profileInfo: String?
    var scope: String
    var refreshToken: String?
    var refreshTokenLifetime: Int
    var clientInfo: String?

    var json: JSONValue {
        var body = JSONObject()
        if let accessToken { body["access_token"] = .string(accessToken) }
        if let idToken { body["id_token"] = .string(idToken) }
        body["token_type"] = "Bearer"
        body["not_before"] = .int(issuedAt)
        if let resource {
            body["expires_in"] = .int(lifetime)
            body["expires_on"] = .int(issuedAt + lifetime)
            body["resource"] = .string(resource)
        }
        if idToken != nil { body["id_token_expires_in"] = .int(lifetime) }
        if let profileInfo { body["profile_info"] = .string(profileInfo) }
        body["scope"] = .string(scope)
        if let refreshToken {
            body["refresh_token"] = .string(refreshToken)
            body["refresh_token_expires_in"] = .int(refreshTokenLifetime)
        }
        if let clientInfo { body["client_info"] = .string(clientInfo) }
        return .object(body)
    }
}
