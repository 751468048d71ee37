import MockIDPJOSE

/// The claims of a v2 ID token, in Entra's order (docs/entra-behaviour.md, "ID tokens (v2)"). `email`, `name` and
/// `preferred_username` follow the `email` and `profile` scopes.
struct V2IDTokenClaims: WritableClaims {
    var audience: String
    var issuer: String
    var issuedAt: Int
    var notBefore: Int
    var expires: Int
    var authTime: Int?
    var aio: String
    var nonce: String?
    var codeHash: String?
    var accessTokenHash: String?
    var identityProvider: String?
    var email: String?
    var groups: [String]?
    var name: String?
    var objectID: String
    var preferredUsername: String?
    var refreshHint: String
    var roles: [String]?
    var subject: String
    var tenantID: String
    var tokenIdentifier: String
    var version = "2.0"
    /// Only when the request's `claims` asked for MFA (a mock stand-in, so tests can see the step-up).
    var authenticationMethods: [String]?
    var authenticationContexts: [String]?

    /// Every member, in the order above, under its wire name: the one place the claims' names are spelled.
    func write(to claims: inout ClaimsWriter) {
        claims.member("aud", audience)
        claims.member("iss", issuer)
        claims.member("iat", issuedAt)
        claims.member("nbf", notBefore)
        claims.member("exp", expires)
        claims.member("auth_time", authTime)
        claims.member("aio", aio)
        claims.member("nonce", nonce)
        claims.member("c_hash", codeHash)
        claims.member("at_hash", accessTokenHash)
        claims.member("idp", identityProvider)
        claims.member("email", email)
        claims.member("groups", groups)
        claims.member("name", name)
        claims.member("oid", objectID)
        claims.member("preferred_username", preferredUsername)
        claims.member("rh", refreshHint)
        claims.member("roles", roles)
        claims.member("sub", subject)
        claims.member("tid", tenantID)
        claims.member("uti", tokenIdentifier)
        claims.member("ver", version)
        claims.member("amr", authenticationMethods)
        claims.member("acrs", authenticationContexts)
    }
}
