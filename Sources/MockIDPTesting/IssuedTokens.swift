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
