import MockIDPJOSE

/// `grant_type=refresh_token`: the token must be ours, unexpired, issued to this client for a user who still
/// exists. The scopes may differ from the original ones (Entra refresh tokens are multi-resource), but each
/// must be valid for the tenant; without `scope` the original scopes are used. A family refresh token (issued
/// to a `foci` app) is redeemable by every family public client of the same tenant.
struct RefreshTokenGrant: GrantHandler {
    func issue(_ call: TokenCall) throws(OAuthError) -> TokenResponse {
        let token = try call.parameters.required("refresh_token")
        guard let record = call.provider.refreshTokens.open(token), record.policy == nil else { throw .invalidRefreshToken() }
        guard let issuing = call.directory.tenant(record.tenantID) else { throw .refreshTokenUserGone() }
        var tenant = issuing
        var sameAccount: User?
        // Entra: a user's refresh token redeems at another tenant where the same person is (a guest there, or at
        // home for a guest's token): MSAL keeps one refresh token per account, not per realm, and refreshes every
        // tenant's tokens with it (docs/entra-behaviour.md, "Grants"; MSAL.NET 2.6.1 release notes:
        // "This enables MSAL to acquire tokens for resources outside the home tenant").
        if let specific = call.authority.specificTenant, specific.id != issuing.id {
            guard let original = call.directory.user(record.username, in: issuing), original.objectID == record.userObjectID,
                  let there = call.directory.user(sameAccountAs: original, from: issuing, in: specific) else {
                throw .invalidRefreshToken()
            }
            tenant = specific
            sameAccount = there
        }
        let (client, authentication) = try call.checkClient(tenant: tenant, requireCredential: true)
        if client.clientID != record.clientID {
            guard record.family else { throw .refreshTokenForOtherClient() }
            // Entra: family refresh tokens are shared among public clients only.
            guard client.foci, client.type == .public else { throw .familyRefreshTokenForOtherClient() }
        }
        let now = call.provider.clock.now()
        guard now < record.expiresAt else {
            throw .expiredRefreshToken(issuedAt: EntraTime.iso8601(record.issuedAt), inactiveSeconds: now - record.issuedAt)
        }
        let user: User
        if let sameAccount {
            user = sameAccount
        } else {
            guard let member = call.directory.user(record.username, in: tenant), member.objectID == record.userObjectID else {
                throw .refreshTokenUserGone()
            }
            user = member
        }
        let scopes = try call.userScopes(stored: record.scope, storedResource: record.resource, tenant: tenant)
        // Entra: a refresh for scopes the user never consented to is AADSTS65001 (MSAL then goes interactive).
        try call.provider.consentPolicy.checkUserConsent(client: client, user: user, tenant: tenant, scopes: scopes, scope: call.scope)
        let grant = Grant(client: client, clientAuthentication: authentication,
                          scopes: scopes, applicationResource: nil, applicationResourceIdentifier: nil,
                          issuedAt: now, authenticationMethods: ["pwd"], nonce: nil,
                          includeClientInfo: call.parameters["client_info"] == "1")
        return try call.userTokenResponse(grant, user: user, tenant: tenant)
    }
}
