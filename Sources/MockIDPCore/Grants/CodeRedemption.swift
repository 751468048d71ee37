/// An authorization code redeemed: what it was issued for, the client that redeemed it and how that client
/// authenticated, the user and tenant it stands for, and the scopes as the grant's dialect reads them.
struct RedeemedCode<Scopes> {
    var record: AuthorizationCode
    var client: Application
    var authentication: ClientAuthenticationMethod
    var user: User
    var tenant: Tenant
    var scopes: Scopes
}

extension TokenCall {
    /// The checks of a code, Entra's and B2C's alike, in Entra's order (docs/entra-behaviour.md, "PKCE and
    /// authorization codes"): known here, the client and its credential, not redeemed yet, issued to this client,
    /// unexpired, the dialect's own check (`dialectCheck`: B2C's policy), the same redirect URI, the PKCE verifier, the
    /// user still there, the scopes (`scopes`). The code is spent only once every check passed: a failed attempt does
    /// not burn it. `tenant` is where the record's code may be redeemed, nil when not at this request.
    func redeemCode<Scopes>(tenant: (AuthorizationCode) -> Tenant?,
                            dialectCheck: (AuthorizationCode) throws(OAuthError) -> Void = { _ in },
                            scopes: (AuthorizationCode, Application, Tenant) throws(OAuthError) -> Scopes)
        throws(OAuthError) -> RedeemedCode<Scopes> {
        let code = try parameters.required("code")
        guard let record = provider.authorizationCodes.record(code), let tenant = tenant(record) else { throw .invalidAuthorizationCode() }
        let (client, authentication) = try checkClient(tenant: tenant, requireCredential: true)
        guard !record.redeemed else { throw .codeAlreadyRedeemed() }
        guard client.clientID == record.clientID else { throw .codeIssuedToAnotherClient() }
        guard provider.clock.now() < record.expiresAt else { throw .codeExpired() }
        try dialectCheck(record)
        guard parameters["redirect_uri"] == record.redirectURI else { throw .codeRedirectURIMismatch() }
        try PKCE.check(verifier: parameters["code_verifier"], challenge: record.codeChallenge, method: record.codeChallengeMethod)
        guard let user = directory.user(record.username, in: tenant), user.objectID == record.userObjectID else {
            throw .refreshTokenUserGone()
        }
        let scopes = try scopes(record, client, tenant)
        guard provider.authorizationCodes.redeem(code) else { throw .codeAlreadyRedeemed() }
        return RedeemedCode(record: record, client: client, authentication: authentication, user: user, tenant: tenant, scopes: scopes)
    }
}
