import MockIDPJOSE

extension TokenCall {
    /// B2C's token response: `access_token` (with `expires_in`, `expires_on` and `resource`) only when a resource
    /// or the client ID was asked for, `id_token` (with `id_token_expires_in`) for `openid`, `refresh_token` for
    /// `offline_access`, and B2C's `not_before` and `profile_info`. A code redeemed for `openid` alone answers
    /// `{"id_token", "token_type", "not_before", "id_token_expires_in", "profile_info", "scope": "openid"}`
    /// (MicrosoftDocs/azure-docs#64582, a real response; B2C's openid-connect article shows the same for
    /// `openid offline_access`), with no access token and no `expires_in` or `expires_on`.
    func b2cTokenResponse(_ grant: B2CGrant, user: User, clientAuthentication: ClientAuthenticationMethod) throws(OAuthError) -> TokenResponse {
        // The control API's extra claims, as for Entra's token responses.
        let factory = provider.tokenFactory(directory, scope, tenant: grant.authority.tenant, clientID: grant.client.clientID, username: user.username)
        let audience = grant.scopes.audience
        let accessToken = try audience.map { audience throws(OAuthError) in try factory.b2cAccessToken(grant, user: user, audience: audience) }
        let idToken = grant.scopes.wantsIDToken ? try factory.b2cIDToken(grant, user: user) : nil
        let scope = grant.scopes.requested.joined(separator: " ")
        let refreshLifetime = directory.configuration.tokens.refreshLifetime
        let refreshToken = grant.scopes.wantsRefreshToken ? provider.refreshTokens.issue(
            tenant: grant.authority.tenant, clientID: grant.client.clientID, user: user, scope: scope,
            clientAuthentication: clientAuthentication, issuedAt: grant.issuedAt, lifetime: refreshLifetime,
            policy: grant.authority.policy.name) : nil
        // MSAL's `client_info=1` gets `client_info` in place of `profile_info` (MSAL.NET's B2C capture, B2CWithTenantIdTestData.txt).
        let body = B2CTokenBody(
            accessToken: accessToken, idToken: idToken, issuedAt: grant.issuedAt, lifetime: factory.lifetime,
            resource: audience?.clientID,
            profileInfo: grant.includeClientInfo ? nil : TokenFactory.b2cProfileInfo(user: user, tenant: grant.authority.tenant),
            scope: scope, refreshToken: refreshToken, refreshTokenLifetime: refreshLifetime,
            clientInfo: grant.includeClientInfo ? TokenFactory.b2cClientInfo(user: user, authority: grant.authority) : nil)
        return TokenResponse(body: body.json)
    }
}
