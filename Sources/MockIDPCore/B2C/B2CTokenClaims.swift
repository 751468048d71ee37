import MockIDPJOSE

/// The claims of a B2C ID or access token, in B2C's order (docs/entra-behaviour.md, "B2C tokens"): `ver` 1.0 on the
/// v2.0 endpoint, `sub` = object ID, `emails` an array, the policy in `tfp` or `acr`, `newUser` on sign-up, `tid`
/// from custom policies only.
struct B2CTokenClaims: WritableClaims {
    var expires: Int
    var notBefore: Int
    var version = "1.0"
    var issuer: String
    var subject: String
    var audience: String
    var nonce: String?
    var issuedAt: Int
    var authTime: Int
    var objectID: String
    var name: String?
    var givenName: String?
    var familyName: String?
    var emails: [String]?
    var newUser: Bool?
    /// The policy, when the tenant names it in `tfp` (the default) …
    var trustFrameworkPolicy: String?
    /// … or in `acr`.
    var policyAsACR: String?
    var codeHash: String?
    var accessTokenHash: String?
    /// Access tokens: the API scopes granted.
    var scope: String?
    /// Access tokens: the client.
    var authorizedParty: String?
    /// Custom policies only (see `TokenFactory.b2cClaims`).
    var tenantID: String?

    /// Every member, in the order above, under its wire name: the one place the claims' names are spelled.
    func write(to claims: inout ClaimsWriter) {
        claims.member("exp", expires)
        claims.member("nbf", notBefore)
        claims.member("ver", version)
        claims.member("iss", issuer)
        claims.member("sub", subject)
        claims.member("aud", audience)
        claims.member("nonce", nonce)
        claims.member("iat", issuedAt)
        claims.member("auth_time", authTime)
        claims.member("oid", objectID)
        claims.member("name", name)
        claims.member("given_name", givenName)
        claims.member("family_name", familyName)
        claims.member("emails", emails)
        claims.member("newUser", newUser)
        claims.member("tfp", trustFrameworkPolicy)
        claims.member("acr", policyAsACR)
        claims.member("c_hash", codeHash)
        claims.member("at_hash", accessTokenHash)
        claims.member("scp", scope)
        claims.member("azp", authorizedParty)
        claims.member("tid", tenantID)
    }
}
