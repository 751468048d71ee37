import MockIDPJOSE

extension IdentityProvider {
    /// A B2C policy's token endpoint: `authorization_code` and `refresh_token`, and `password` at ROPC policies.
    /// Its errors carry B2C's words beside Entra's; the renderer sends B2C's.
    func b2cToken(_ parameters: TokenParameters, request: TokenRequest, authority: B2CAuthority, directory: Directory,
                  context: RequestScope) throws(OAuthError) -> TokenResponse {
        let grantType = try parameters.required("grant_type")
        switch grantType {
        case "authorization_code": return try b2cAuthorizationCode(parameters, request: request, authority: authority, directory: directory, context: context)
        case "refresh_token": return try b2cRefreshToken(parameters, request: request, authority: authority, directory: directory, context: context)
        case "password" where authority.policy.kind == .ropc:
            return try b2cPassword(parameters, request: request, authority: authority, directory: directory, context: context)
        default: throw .b2cUnsupportedGrantType(grantType)
        }
    }

    /// A code from this tenant's authorize endpoint, redeemed once, by its client, with its redirect URI and PKCE
    /// verifier, at the policy that issued it.
    private func b2cAuthorizationCode(_ parameters: TokenParameters, request: TokenRequest, authority: B2CAuthority,
                                      directory: Directory, context: RequestScope) throws(OAuthError) -> TokenResponse {
        let code = try parameters.required("code")
        guard let record = authorizationCodes.record(code), let policy = record.policy,
              record.tenantID == authority.tenant.id else { throw .invalidAuthorizationCode() }
        let (client, authentication) = try checkClient(parameters, request: request, tenant: authority.tenant,
                                                       directory: directory, context: context, requireCredential: true)
        guard !record.redeemed else { throw .codeAlreadyRedeemed() }
        guard client.clientID == record.clientID else { throw .codeIssuedToAnotherClient() }
        guard clock.now() < record.expiresAt else { throw .codeExpired() }
        guard policy.lowercased() == authority.policy.pathName else {
            throw .grantForOtherPolicy(actual: authority.policy.pathName, expected: policy.lowercased())
        }
        guard parameters["redirect_uri"] == record.redirectURI else { throw .codeRedirectURIMismatch() }
        try checkPKCE(verifier: parameters["code_verifier"], challenge: record.codeChallenge, method: record.codeChallengeMethod)
        guard let user = directory.user(record.username, in: authority.tenant), user.objectID == record.userObjectID else {
            throw .refreshTokenUserGone()
        }
        let scopes = try B2CScopeRequest(parameters["scope"] ?? record.scope, client: client, tenant: authority.tenant, directory: directory)
        guard authorizationCodes.redeem(code) else { throw .codeAlreadyRedeemed() }
        let grant = B2CGrant(client: client, authority: authority, scopes: scopes, issuedAt: clock.now(), authTime: record.authTime,
                             nonce: record.nonce, newUser: record.newUser, includeClientInfo: parameters["client_info"] == "1")
        return try b2cTokenResponse(grant, user: user, clientAuthentication: authentication, directory: directory, context: context)
    }

    /// The ROPC user flow: a public client sends a local account's sign-in name and password (B2C's
    /// add-ropc-policy article); the tokens are the policy's, with no `newUser` and no nonce.
    private func b2cPassword(_ parameters: TokenParameters, request: TokenRequest, authority: B2CAuthority,
                             directory: Directory, context: RequestScope) throws(OAuthError) -> TokenResponse {
        let username = try parameters.required("username")
        let password = try parameters.required("password")
        let (client, authentication) = try checkClient(parameters, request: request, tenant: authority.tenant,
                                                       directory: directory, context: context, requireCredential: false)
        guard !client.isConfidential else { throw .ropcNotEnabled(clientID: client.clientID) }
        // B2C's ROPC article: the app needs "Allow public client flows" and oauth2AllowImplicitFlow (AADB2C90057 without).
        guard client.enableAccessTokenIssuance else { throw .responseTypeNotEnabled("token") }
        guard let user = directory.user(username, in: authority.tenant) else {
            throw .b2cInvalidCredentials(username: username, unknownUser: true)
        }
        guard password.isSameSecret(as: user.password) else { throw .b2cInvalidCredentials(username: username, unknownUser: false) }
        let scopes = try B2CScopeRequest(try parameters.required("scope"), client: client, tenant: authority.tenant, directory: directory)
        let now = clock.now()
        let grant = B2CGrant(client: client, authority: authority, scopes: scopes, issuedAt: now, authTime: now,
                             nonce: nil, newUser: false, includeClientInfo: parameters["client_info"] == "1")
        return try b2cTokenResponse(grant, user: user, clientAuthentication: authentication, directory: directory, context: context)
    }

    /// A refresh token of this tenant's B2C policies, for its client and a user who still exists; the tokens
    /// name the policy whose endpoint was called.
    private func b2cRefreshToken(_ parameters: TokenParameters, request: TokenRequest, authority: B2CAuthority,
                                 directory: Directory, context: RequestScope) throws(OAuthError) -> TokenResponse {
        let token = try parameters.required("refresh_token")
        guard let record = refreshTokens.open(token), record.policy != nil,
              record.tenantID == authority.tenant.id else { throw .invalidRefreshToken() }
        let (client, authentication) = try checkClient(parameters, request: request, tenant: authority.tenant,
                                                       directory: directory, context: context, requireCredential: true)
        guard client.clientID == record.clientID else { throw .refreshTokenForOtherClient() }
        let now = clock.now()
        guard now < record.expiresAt else {
            throw .expiredRefreshToken(issuedAt: EntraTime.iso8601(record.issuedAt), inactiveSeconds: now - record.issuedAt)
        }
        guard let user = directory.user(record.username, in: authority.tenant), user.objectID == record.userObjectID else {
            throw .refreshTokenUserGone()
        }
        let scopes = try B2CScopeRequest(parameters["scope"] ?? record.scope, client: client, tenant: authority.tenant, directory: directory)
        let grant = B2CGrant(client: client, authority: authority, scopes: scopes, issuedAt: now, authTime: record.issuedAt,
                             nonce: nil, newUser: false, includeClientInfo: parameters["client_info"] == "1")
        return try b2cTokenResponse(grant, user: user, clientAuthentication: authentication, directory: directory, context: context)
    }

    /// B2C's token response: `access_token` (with `expires_in`, `expires_on` and `resource`) only when a resource
    /// or the client ID was asked for, `id_token` (with `id_token_expires_in`) for `openid`, `refresh_token` for
    /// `offline_access`, and B2C's `not_before` and `profile_info`. A code redeemed for `openid` alone answers
    /// `{"id_token", "token_type", "not_before", "id_token_expires_in", "profile_info", "scope": "openid"}`
    /// (MicrosoftDocs/azure-docs#64582, a real response; B2C's openid-connect article shows the same for
    /// `openid offline_access`), with no access token and no `expires_in` or `expires_on`.
    private func b2cTokenResponse(_ grant: B2CGrant, user: User, clientAuthentication: ClientAuthenticationMethod,
                                  directory: Directory, context: RequestScope) throws(OAuthError) -> TokenResponse {
        // The control API's extra claims, as for Entra's token responses.
        let factory = tokenFactory(directory, context, tenant: grant.authority.tenant, clientID: grant.client.clientID, username: user.username)
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
            body["refresh_token"] = .string(storeRefreshToken(
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
