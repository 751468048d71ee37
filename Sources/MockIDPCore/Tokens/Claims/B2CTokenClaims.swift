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

    enum CodingKeys: String, CodingKey {
        case expires = "exp", notBefore = "nbf", version = "ver", issuer = "iss", subject = "sub", audience = "aud"
        case nonce, issuedAt = "iat", authTime = "auth_time", objectID = "oid", name, givenName = "given_name"
        case familyName = "family_name", emails, newUser, trustFrameworkPolicy = "tfp", policyAsACR = "acr"
        case codeHash = "c_hash", accessTokenHash = "at_hash", scope = "scp", authorizedParty = "azp", tenantID = "tid"
    }

    /// Every member, in the order above.
    func write(to claims: inout ClaimsWriter) throws {
        try claims.member(CodingKeys.expires, expires)
        try claims.member(CodingKeys.notBefore, notBefore)
        try claims.member(CodingKeys.version, version)
        try claims.member(CodingKeys.issuer, issuer)
        try claims.member(CodingKeys.subject, subject)
        try claims.member(CodingKeys.audience, audience)
        try claims.member(CodingKeys.nonce, nonce)
        try claims.member(CodingKeys.issuedAt, issuedAt)
        try claims.member(CodingKeys.authTime, authTime)
        try claims.member(CodingKeys.objectID, objectID)
        try claims.member(CodingKeys.name, name)
        try claims.member(CodingKeys.givenName, givenName)
        try claims.member(CodingKeys.familyName, familyName)
        try claims.member(CodingKeys.emails, emails)
        try claims.member(CodingKeys.newUser, newUser)
        try claims.member(CodingKeys.trustFrameworkPolicy, trustFrameworkPolicy)
        try claims.member(CodingKeys.policyAsACR, policyAsACR)
        try claims.member(CodingKeys.codeHash, codeHash)
        try claims.member(CodingKeys.accessTokenHash, accessTokenHash)
        try claims.member(CodingKeys.scope, scope)
        try claims.member(CodingKeys.authorizedParty, authorizedParty)
        try claims.member(CodingKeys.tenantID, tenantID)
    }
}
