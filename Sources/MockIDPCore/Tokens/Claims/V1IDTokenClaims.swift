import MockIDPJOSE

/// The claims of an ID token from the v1 endpoints (ADAL), in Entra's order
/// (docs/entra-behaviour.md, "ID tokens (v1)").
struct V1IDTokenClaims: WritableClaims {
    var audience: String
    var issuer: String
    var issuedAt: Int
    var notBefore: Int
    var expires: Int
    var authTime: Int?
    var authenticationMethods: [String]
    var aio: String
    var nonce: String?
    var codeHash: String?
    var accessTokenHash: String?
    var identityProvider: String?
    var email: String?
    var familyName: String?
    var givenName: String?
    var name: String?
    var groups: [String]?
    var objectID: String
    var refreshHint: String
    var roles: [String]?
    var subject: String
    var tenantID: String
    var uniqueName: String
    var userPrincipalName: String?
    var tokenIdentifier: String
    var version = "1.0"
    var authenticationContexts: [String]?

    /// Every member, in the order above, under its wire name: the one place the claims' names are spelled.
    func write(to claims: inout ClaimsWriter) {
        claims.member("aud", audience)
        claims.member("iss", issuer)
        claims.member("iat", issuedAt)
        claims.member("nbf", notBefore)
        claims.member("exp", expires)
        claims.member("auth_time", authTime)
        claims.member("amr", authenticationMethods)
        claims.member("aio", aio)
        claims.member("nonce", nonce)
        claims.member("c_hash", codeHash)
        claims.member("at_hash", accessTokenHash)
        claims.member("idp", identityProvider)
        claims.member("email", email)
        claims.member("family_name", familyName)
        claims.member("given_name", givenName)
        claims.member("name", name)
        claims.member("groups", groups)
        claims.member("oid", objectID)
        claims.member("rh", refreshHint)
        claims.member("roles", roles)
        claims.member("sub", subject)
        claims.member("tid", tenantID)
        claims.member("unique_name", uniqueName)
        claims.member("upn", userPrincipalName)
        claims.member("uti", tokenIdentifier)
        claims.member("ver", version)
        claims.member("acrs", authenticationContexts)
    }
}
