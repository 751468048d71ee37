import MockIDPJOSE

/// `grant_type=authorization_code`: a code is redeemed once, by the client it was issued to, with the same
/// redirect URI, before `tokens.codeLifetime` passes, and with the PKCE verifier when a challenge was sent
/// (docs/entra-behaviour.md, "PKCE and authorization codes").
struct AuthorizationCodeGrant: GrantHandler {
    func issue(_ call: TokenCall) throws(OAuthError) -> TokenResponse {
        let provider = call.provider
        let parameters = call.parameters
        let request = call.request
        let authority = call.authority
        let directory = call.directory
        let context = call.scope
        let code = try parameters.required("code")
        guard let record = provider.authorizationCodes.record(code), record.policy == nil else { throw .invalidAuthorizationCode() }
        guard let tenant = directory.tenant(record.tenantID) else { throw .invalidAuthorizationCode() }
        if let specific = authority.specificTenant, specific.id != tenant.id { throw .invalidAuthorizationCode() }
        let (client, authentication) = try provider.checkClient(parameters, request: request, tenant: tenant,
                                                       directory: directory, context: context, requireCredential: true)
        guard !record.redeemed else { throw .codeAlreadyRedeemed() }
        guard client.clientID == record.clientID else { throw .codeIssuedToAnotherClient() }
        guard provider.clock.now() < record.expiresAt else { throw .codeExpired() }
        guard parameters["redirect_uri"] == record.redirectURI else { throw .codeRedirectURIMismatch() }
        try PKCE.check(verifier: parameters["code_verifier"], challenge: record.codeChallenge, method: record.codeChallengeMethod)
        guard let user = directory.user(record.username, in: tenant), user.objectID == record.userObjectID else {
            throw .refreshTokenUserGone()
        }
        let scopes = try provider.userScopes(parameters, request: request, stored: record.scope, storedResource: record.resource,
                                    tenant: tenant, directory: directory, context: context)
        // Every check passed: the code is spent now, once (a failed attempt does not burn it).
        guard provider.authorizationCodes.redeem(code) else { throw .codeAlreadyRedeemed() }
        var grant = Grant(client: client, clientAuthentication: authentication, scopes: scopes, applicationResource: nil,
                          applicationResourceIdentifier: nil, issuedAt: provider.clock.now(), authenticationMethods: ["pwd"],
                          nonce: record.nonce, includeClientInfo: parameters["client_info"] == "1")
        if record.maxAgeRequested { grant.authTime = record.authTime }
        grant.signInTime = record.authTime
        return try provider.userTokenResponse(grant, user: user, tenant: tenant, directory: directory, context: context, version: request.version)
    }
}
