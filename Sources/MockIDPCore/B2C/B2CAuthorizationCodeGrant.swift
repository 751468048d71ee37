import MockIDPJOSE

/// A code from this tenant's authorize endpoint, redeemed once, by its client, with its redirect URI and PKCE
/// verifier, at the policy that issued it.
struct B2CAuthorizationCodeGrant: GrantHandler {
    func issue(_ call: TokenCall) throws(OAuthError) -> TokenResponse {
        let provider = call.provider
        let parameters = call.parameters
        let request = call.request
        let directory = call.directory
        let context = call.scope
        guard let authority = call.scope.b2c else { preconditionFailure("B2C grants run at B2C user flows") }
        let code = try parameters.required("code")
        guard let record = provider.authorizationCodes.record(code), let policy = record.policy,
              record.tenantID == authority.tenant.id else { throw .invalidAuthorizationCode() }
        let (client, authentication) = try provider.checkClient(parameters, request: request, tenant: authority.tenant,
                                                       directory: directory, context: context, requireCredential: true)
        guard !record.redeemed else { throw .codeAlreadyRedeemed() }
        guard client.clientID == record.clientID else { throw .codeIssuedToAnotherClient() }
        guard provider.clock.now() < record.expiresAt else { throw .codeExpired() }
        guard policy.lowercased() == authority.policy.pathName else {
            throw .grantForOtherPolicy(actual: authority.policy.pathName, expected: policy.lowercased())
        }
        guard parameters["redirect_uri"] == record.redirectURI else { throw .codeRedirectURIMismatch() }
        try PKCE.check(verifier: parameters["code_verifier"], challenge: record.codeChallenge, method: record.codeChallengeMethod)
        guard let user = directory.user(record.username, in: authority.tenant), user.objectID == record.userObjectID else {
            throw .refreshTokenUserGone()
        }
        let scopes = try B2CScopeRequest(parameters["scope"] ?? record.scope, client: client, tenant: authority.tenant, directory: directory)
        guard provider.authorizationCodes.redeem(code) else { throw .codeAlreadyRedeemed() }
        let grant = B2CGrant(client: client, authority: authority, scopes: scopes, issuedAt: provider.clock.now(), authTime: record.authTime,
                             nonce: record.nonce, newUser: record.newUser, includeClientInfo: parameters["client_info"] == "1")
        return try call.b2cTokenResponse(grant, user: user, clientAuthentication: authentication)
    }
}
