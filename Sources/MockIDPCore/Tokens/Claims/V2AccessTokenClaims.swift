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

    /// Every member, in the order above, under its wire name: the one place the claims' names are spelled.
    func write(to claims: inout ClaimsWriter) {
        claims.member("aud", audience)
        claims.member("iss", issuer)
        claims.member("iat", issuedAt)
        claims.member("nbf", notBefore)
        claims.member("exp", expires)
        claims.member("aio", aio)
        claims.member("azp", authorizedParty)
        claims.member("azpacr", authorizedPartyAuthentication)
        claims.member("groups", groups)
        claims.member("idp", identityProvider)
        claims.member("email", email)
        claims.member("idtyp", identityType)
        claims.member("name", name)
        claims.member("oid", objectID)
        claims.member("preferred_username", preferredUsername)
        claims.member("rh", refreshHint)
        claims.member("roles", roles)
        claims.member("scp", scope)
        claims.member("sub", subject)
        claims.member("tid", tenantID)
        claims.member("uti", tokenIdentifier)
        claims.member("ver", version)
        claims.member("xms_mirid", managedIdentityResourceID)
        claims.member("amr", authenticationMethods)
        claims.member("acrs", authenticationContexts)
    }
}
