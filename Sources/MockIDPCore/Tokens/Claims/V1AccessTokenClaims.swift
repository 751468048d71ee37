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

    /// Every member, in the order above, under its wire name: the one place the claims' names are spelled.
    func write(to claims: inout ClaimsWriter) {
        claims.member("aud", audience)
        claims.member("iss", issuer)
        claims.member("iat", issuedAt)
        claims.member("nbf", notBefore)
        claims.member("exp", expires)
        claims.member("acr", authenticationContextClass)
        claims.member("aio", aio)
        claims.member("amr", authenticationMethods)
        claims.member("appid", appID)
        claims.member("appidacr", appIDAuthentication)
        claims.member("family_name", familyName)
        claims.member("given_name", givenName)
        claims.member("groups", groups)
        claims.member("idp", identityProvider)
        claims.member("email", email)
        claims.member("idtyp", identityType)
        claims.member("name", name)
        claims.member("oid", objectID)
        claims.member("rh", refreshHint)
        claims.member("roles", roles)
        claims.member("scp", scope)
        claims.member("sub", subject)
        claims.member("tid", tenantID)
        claims.member("unique_name", uniqueName)
        claims.member("upn", userPrincipalName)
        claims.member("uti", tokenIdentifier)
        claims.member("ver", version)
        claims.member("xms_mirid", managedIdentityResourceID)
        claims.member("acrs", authenticationContexts)
    }
}
