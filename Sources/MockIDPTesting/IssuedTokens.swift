import MockIDPJOSE

/// A successful token response, with the tokens' claims read after their signatures were verified against
/// the server's published key set.
public struct IssuedTokens: Sendable {
    /// `access_token`.
    public var accessToken: String
    /// `id_token`, when the grant returns one (`openid` in the scopes).
    public var idToken: String?
    /// `refresh_token`, when the grant returns one (`offline_access`).
    public var refreshToken: String?
    /// The access token's claims (`aud`, `roles`, `scp`, `oid`, …), its signature verified.
    public var claims: JSONObject
    /// The ID token's claims, its signature verified (nil without an ID token).
    public var idTokenClaims: JSONObject?
    /// The whole JSON response (`token_type`, `expires_in`, `scope`, `client_info`, …).
    public var response: JSONObject
}

/// The token endpoint refused a request: Entra's error response, taken apart.
public struct TokenRequestError: Error, Sendable, CustomStringConvertible {
    /// The HTTP status (400, or 401 for `invalid_client`).
    public var status: Int
    /// `error` (`invalid_grant`, `invalid_client`, …).
    public var error: String
    /// `error_description`, starting with `AADSTSnnnn:`.
    public var errorDescription: String
    /// `error_codes` (the AADSTS numbers).
    public var errorCodes: [Int]
    /// `suberror`, when Entra sends one (`basic_action`, `consent_required`, …).
    public var suberror: String?
    /// `claims`: the claims challenge a client must answer, as a JSON string.
    public var claims: String?
    /// The whole JSON body.
    public var response: JSONObject

    /// `status error (AADSTS…): description`.
    public var description: String { "\(status) \(error) \(errorCodes): \(errorDescription)" }

    init(status: Int, body: JSONObject) {
        self.status = status
        response = body
        error = body["error"]?.stringValue ?? "(no error member)"
        errorDescription = body["error_description"]?.stringValue ?? ""
        errorCodes = body["error_codes"]?.arrayValue?.compactMap(\.intValue) ?? []
        suberror = body["suberror"]?.stringValue
        claims = body["claims"]?.stringValue
    }
}
