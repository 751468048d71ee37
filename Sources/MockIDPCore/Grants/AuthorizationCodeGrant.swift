import MockIDPJOSE

/// `grant_type=authorization_code`: a code is redeemed once, by the client it was issued to, with the same
/// redirect URI, before `tokens.codeLifetime` passes, and with the PKCE verifier when a challenge was sent
/// (docs/entra-behaviour.md, "PKCE and authorization codes").
struct AuthorizationCodeGrant: GrantHandler {
    func issue(_ call: TokenCall) throws(OAuthError) -> TokenResponse {
        let code = try call.parameters.required("code")
        guard let record = call.provider.authorizationCodes.record(code), record.policy == nil else { throw .invalidAuthorizationCode() }
        guard let tenant = call.directory.tenant(record.tenantID) else { throw .invalidAuthorizationCode() }
        if let specific = call.authority.specificTenant, specific.id != tenant.id { throw .invalidAuthorizationCode() }
        let (client, authentication) = try call.provider.checkClient(call.parameters, request: call.request, tenant: tenant,
                                                       directory: call.directory, context: call.scope, requireCredential: true)
        guard !record.redeemed else { throw .codeAlreadyRedeemed() }
        guard client.clientID == record.clientID else { throw .codeIssuedToAnotherClient() }
        guard call.provider.clock.now() < record.expiresAt else { throw .codeExpired() }
        guard call.parameters["redirect_uri"] == record.redirectURI else { throw .codeRedirectURIMismatch() }
        try PKCE.check(verifier: call.parameters["code_verifier"], challenge: record.codeChallenge, method: record.codeChallengeMethod)
        guard let user = call.directory.user(record.username, in: tenant), user.objectID == record.userObjectID else {
            throw .refreshTokenUserGone()
        }
        let scopes = try call.provider.userScopes(call.parameters, request: call.request, stored: record.scope, storedResource: record.resource,
                                    tenant: tenant, directory: call.directory, context: call.scope)
        // Every check passed: the code is spent now, once (a failed attempt does not burn it).
        guard call.provider.authorizationCodes.redeem(code) else { throw .codeAlreadyRedeemed() }
        var grant = Grant(client: client, clientAuthentication: authentication, scopes: scopes, applicationResource: nil,
                          applicationResourceIdentifier: nil, issuedAt: call.provider.clock.now(), authenticationMethods: ["pwd"],
                          nonce: record.nonce, includeClientInfo: call.parameters["client_info"] == "1")
        if record.maxAgeRequested { grant.authTime = record.authTime }
        grant.signInTime = record.authTime
        return try call.provider.userTokenResponse(grant, user: user, tenant: tenant, directory: call.directory, context: call.scope, version: call.request.version)
    }
}
