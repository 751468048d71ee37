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

    enum CodingKeys: String, CodingKey {
        case audience = "aud", issuer = "iss", issuedAt = "iat", notBefore = "nbf", expires = "exp"
        case authTime = "auth_time", aio, nonce, codeHash = "c_hash", accessTokenHash = "at_hash"
        case identityProvider = "idp", email, groups, name, objectID = "oid", preferredUsername = "preferred_username"
        case refreshHint = "rh", roles, subject = "sub", tenantID = "tid", tokenIdentifier = "uti", version = "ver"
        case authenticationMethods = "amr", authenticationContexts = "acrs"
    }

    /// Every member, in the order above.
    func write(to claims: inout ClaimsWriter) throws {
        try claims.member(CodingKeys.audience, audience)
        try claims.member(CodingKeys.issuer, issuer)
        try claims.member(CodingKeys.issuedAt, issuedAt)
        try claims.member(CodingKeys.notBefore, notBefore)
        try claims.member(CodingKeys.expires, expires)
        try claims.member(CodingKeys.authTime, authTime)
        try claims.member(CodingKeys.aio, aio)
        try claims.member(CodingKeys.nonce, nonce)
        try claims.member(CodingKeys.codeHash, codeHash)
        try claims.member(CodingKeys.accessTokenHash, accessTokenHash)
        try claims.member(CodingKeys.identityProvider, identityProvider)
        try claims.member(CodingKeys.email, email)
        try claims.member(CodingKeys.groups, groups)
        try claims.member(CodingKeys.name, name)
        try claims.member(CodingKeys.objectID, objectID)
        try claims.member(CodingKeys.preferredUsername, preferredUsername)
        try claims.member(CodingKeys.refreshHint, refreshHint)
        try claims.member(CodingKeys.roles, roles)
        try claims.member(CodingKeys.subject, subject)
        try claims.member(CodingKeys.tenantID, tenantID)
        try claims.member(CodingKeys.tokenIdentifier, tokenIdentifier)
        try claims.member(CodingKeys.version, version)
        try claims.member(CodingKeys.authenticationMethods, authenticationMethods)
        try claims.member(CodingKeys.authenticationContexts, authenticationContexts)
    }
}
