import MockIDPJOSE

/// The claims of a v1 access token (issuer `https://sts.windows.net/{tid}/`), user or app-only, in Entra's order
/// (docs/entra-behaviour.md, "Access tokens"). Nil members are left out.
struct V1AccessTokenClaims: WritableClaims {
    var audience: String
    var issuer: String
    var issuedAt: Int
    var notBefore: Int
    var expires: Int
    /// Entra (v1 user tokens): always "1".
    var authenticationContextClass: String?
    var aio: String
    var authenticationMethods: [String]?
    var appID: String
    /// `ClientAuthenticationMethod`'s wire value.
    var appIDAuthentication: String
    var familyName: String?
    var givenName: String?
    var groups: [String]?
    var identityProvider: String?
    var email: String?
    var identityType: String?
    var name: String?
    var objectID: String
    var refreshHint: String
    var roles: [String]?
    var scope: String?
    var subject: String
    var tenantID: String
    var uniqueName: String?
    var userPrincipalName: String?
    var tokenIdentifier: String
    var version = "1.0"
    /// A managed identity's Azure resource ID (app-only tokens of managed identities only).
    var managedIdentityResourceID: String? = nil
    var authenticationContexts: [String]?

    enum CodingKeys: String, CodingKey {
        case audience = "aud", issuer = "iss", issuedAt = "iat", notBefore = "nbf", expires = "exp"
        case authenticationContextClass = "acr", aio, authenticationMethods = "amr", appID = "appid"
        case appIDAuthentication = "appidacr", familyName = "family_name", givenName = "given_name", groups
        case identityProvider = "idp", email, identityType = "idtyp", name, objectID = "oid", refreshHint = "rh"
        case roles, scope = "scp", subject = "sub", tenantID = "tid", uniqueName = "unique_name"
        case userPrincipalName = "upn", tokenIdentifier = "uti", version = "ver", managedIdentityResourceID = "xms_mirid", authenticationContexts = "acrs"
    }

    /// Every member, in the order above.
    func write(to claims: inout ClaimsWriter) throws {
        try claims.member(CodingKeys.audience, audience)
        try claims.member(CodingKeys.issuer, issuer)
        try claims.member(CodingKeys.issuedAt, issuedAt)
        try claims.member(CodingKeys.notBefore, notBefore)
        try claims.member(CodingKeys.expires, expires)
        try claims.member(CodingKeys.authenticationContextClass, authenticationContextClass)
        try claims.member(CodingKeys.aio, aio)
        try claims.member(CodingKeys.authenticationMethods, authenticationMethods)
        try claims.member(CodingKeys.appID, appID)
        try claims.member(CodingKeys.appIDAuthentication, appIDAuthentication)
        try claims.member(CodingKeys.familyName, familyName)
        try claims.member(CodingKeys.givenName, givenName)
        try claims.member(CodingKeys.groups, groups)
        try claims.member(CodingKeys.identityProvider, identityProvider)
        try claims.member(CodingKeys.email, email)
        try claims.member(CodingKeys.identityType, identityType)
        try claims.member(CodingKeys.name, name)
        try claims.member(CodingKeys.objectID, objectID)
        try claims.member(CodingKeys.refreshHint, refreshHint)
        try claims.member(CodingKeys.roles, roles)
        try claims.member(CodingKeys.scope, scope)
        try claims.member(CodingKeys.subject, subject)
        try claims.member(CodingKeys.tenantID, tenantID)
        try claims.member(CodingKeys.uniqueName, uniqueName)
        try claims.member(CodingKeys.userPrincipalName, userPrincipalName)
        try claims.member(CodingKeys.tokenIdentifier, tokenIdentifier)
        try claims.member(CodingKeys.version, version)
        try claims.member(CodingKeys.managedIdentityResourceID, managedIdentityResourceID)
        try claims.member(CodingKeys.authenticationContexts, authenticationContexts)
    }
}
