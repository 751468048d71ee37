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

    enum CodingKeys: String, CodingKey {
        case audience = "aud", issuer = "iss", issuedAt = "iat", notBefore = "nbf", expires = "exp"
        case authTime = "auth_time", authenticationMethods = "amr", aio, nonce, codeHash = "c_hash"
        case accessTokenHash = "at_hash", identityProvider = "idp", email, familyName = "family_name"
        case givenName = "given_name", name, groups, objectID = "oid", refreshHint = "rh", roles, subject = "sub"
        case tenantID = "tid", uniqueName = "unique_name", userPrincipalName = "upn", tokenIdentifier = "uti"
        case version = "ver", authenticationContexts = "acrs"
    }

    /// Every member, in the order above.
    func write(to claims: inout ClaimsWriter) throws {
        try claims.member(CodingKeys.audience, audience)
        try claims.member(CodingKeys.issuer, issuer)
        try claims.member(CodingKeys.issuedAt, issuedAt)
        try claims.member(CodingKeys.notBefore, notBefore)
        try claims.member(CodingKeys.expires, expires)
        try claims.member(CodingKeys.authTime, authTime)
        try claims.member(CodingKeys.authenticationMethods, authenticationMethods)
        try claims.member(CodingKeys.aio, aio)
        try claims.member(CodingKeys.nonce, nonce)
        try claims.member(CodingKeys.codeHash, codeHash)
        try claims.member(CodingKeys.accessTokenHash, accessTokenHash)
        try claims.member(CodingKeys.identityProvider, identityProvider)
        try claims.member(CodingKeys.email, email)
        try claims.member(CodingKeys.familyName, familyName)
        try claims.member(CodingKeys.givenName, givenName)
        try claims.member(CodingKeys.name, name)
        try claims.member(CodingKeys.groups, groups)
        try claims.member(CodingKeys.objectID, objectID)
        try claims.member(CodingKeys.refreshHint, refreshHint)
        try claims.member(CodingKeys.roles, roles)
        try claims.member(CodingKeys.subject, subject)
        try claims.member(CodingKeys.tenantID, tenantID)
        try claims.member(CodingKeys.uniqueName, uniqueName)
        try claims.member(CodingKeys.userPrincipalName, userPrincipalName)
        try claims.member(CodingKeys.tokenIdentifier, tokenIdentifier)
        try claims.member(CodingKeys.version, version)
        try claims.member(CodingKeys.authenticationContexts, authenticationContexts)
    }
}
