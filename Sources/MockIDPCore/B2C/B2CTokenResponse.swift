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
        let lifetime = factory.lifetime
        var body = JSONObject()
        if let audience = grant.scopes.audience {
            body["access_token"] = .string(try factory.b2cAccessToken(grant, user: user, audience: audience))
        }
        if grant.scopes.wantsIDToken { body["id_token"] = .string(try factory.b2cIDToken(grant, user: user)) }
        body["token_type"] = "Bearer"
        body["not_before"] = .int(grant.issuedAt)
        if let audience = grant.scopes.audience {
            body["expires_in"] = .int(lifetime)
            body["expires_on"] = .int(grant.issuedAt + lifetime)
            body["resource"] = .string(audience.clientID)
        }
        if grant.scopes.wantsIDToken { body["id_token_expires_in"] = .int(lifetime) }
        // MSAL's `client_info=1` gets `client_info` in its place (MSAL.NET's B2C capture, B2CWithTenantIdTestData.txt).
        if !grant.includeClientInfo { body["profile_info"] = .string(TokenFactory.b2cProfileInfo(user: user, tenant: grant.authority.tenant)) }
        body["scope"] = .string(grant.scopes.requested.joined(separator: " "))
        if grant.scopes.wantsRefreshToken {
            body["refresh_token"] = .string(provider.refreshTokens.issue(
                tenant: grant.authority.tenant, clientID: grant.client.clientID, user: user,
                scope: grant.scopes.requested.joined(separator: " "), clientAuthentication: clientAuthentication,
                issuedAt: grant.issuedAt, lifetime: directory.configuration.tokens.refreshLifetime,
                policy: grant.authority.policy.name))
            body["refresh_token_expires_in"] = .int(directory.configuration.tokens.refreshLifetime)
        }
        if grant.includeClientInfo {
            body["client_info"] = .string(TokenFactory.b2cClientInfo(user: user, authority: grant.authority))
        }
        return TokenResponse(body: .object(body))
    }
}
