import MockIDPJOSE

/// The claims of a v2 access token, user or app-only, in Entra's order (docs/entra-behaviour.md, "Access tokens").
/// Nil members are left out.
struct V2AccessTokenClaims: WritableClaims {
    var audience: String
    var issuer: String
    var issuedAt: Int
    var notBefore: Int
    var expires: Int
    var aio: String
    var authorizedParty: String
    /// `ClientAuthenticationMethod`'s wire value.
    var authorizedPartyAuthentication: String
    var groups: [String]?
    var identityProvider: String?
    var email: String?
    var identityType: String?
    var name: String?
    var objectID: String
    var preferredUsername: String?
    var refreshHint: String
    var roles: [String]?
    var scope: String?
    var subject: String
    var tenantID: String
    var tokenIdentifier: String
    var version = "2.0"
    /// A managed identity's Azure resource ID (app-only tokens of managed identities only).
    var managedIdentityResourceID: String? = nil
    /// Only when the request's `claims` asked for MFA (a mock stand-in, so tests can see the step-up).
    var authenticationMethods: [String]?
    var authenticationContexts: [String]?

    enum CodingKeys: String, CodingKey {
        case audience = "aud", issuer = "iss", issuedAt = "iat", notBefore = "nbf", expires = "exp", aio
        case authorizedParty = "azp", authorizedPartyAuthentication = "azpacr", groups, identityProvider = "idp"
        case email, identityType = "idtyp", name, objectID = "oid", preferredUsername = "preferred_username"
        case refreshHint = "rh", roles, scope = "scp", subject = "sub", tenantID = "tid", tokenIdentifier = "uti"
        case version = "ver", managedIdentityResourceID = "xms_mirid", authenticationMethods = "amr", authenticationContexts = "acrs"
    }

    /// Every member, in the order above.
    func write(to claims: inout ClaimsWriter) throws {
        try claims.member(CodingKeys.audience, audience)
        try claims.member(CodingKeys.issuer, issuer)
        try claims.member(CodingKeys.issuedAt, issuedAt)
        try claims.member(CodingKeys.notBefore, notBefore)
        try claims.member(CodingKeys.expires, expires)
        try claims.member(CodingKeys.aio, aio)
        try claims.member(CodingKeys.authorizedParty, authorizedParty)
        try claims.member(CodingKeys.authorizedPartyAuthentication, authorizedPartyAuthentication)
        try claims.member(CodingKeys.groups, groups)
        try claims.member(CodingKeys.identityProvider, identityProvider)
        try claims.member(CodingKeys.email, email)
        try claims.member(CodingKeys.identityType, identityType)
        try claims.member(CodingKeys.name, name)
        try claims.member(CodingKeys.objectID, objectID)
        try claims.member(CodingKeys.preferredUsername, preferredUsername)
        try claims.member(CodingKeys.refreshHint, refreshHint)
        try claims.member(CodingKeys.roles, roles)
        try claims.member(CodingKeys.scope, scope)
        try claims.member(CodingKeys.subject, subject)
        try claims.member(CodingKeys.tenantID, tenantID)
        try claims.member(CodingKeys.tokenIdentifier, tokenIdentifier)
        try claims.member(CodingKeys.version, version)
        try claims.member(CodingKeys.managedIdentityResourceID, managedIdentityResourceID)
        try claims.member(CodingKeys.authenticationMethods, authenticationMethods)
        try claims.member(CodingKeys.authenticationContexts, authenticationContexts)
    }
}
