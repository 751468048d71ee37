import MockIDPJOSE

/// A code from this tenant's authorize endpoint, redeemed once, by its client, with its redirect URI and PKCE
/// verifier, at the policy that issued it.
struct B2CAuthorizationCodeGrant: GrantHandler {
    func issue(_ call: TokenCall) throws(OAuthError) -> TokenResponse {
        guard let authority = call.scope.b2c else { preconditionFailure("B2C grants run at B2C user flows") }
        let code = try call.parameters.required("code")
        guard let record = call.provider.authorizationCodes.record(code), let policy = record.policy,
              record.tenantID == authority.tenant.id else { throw .invalidAuthorizationCode() }
        let (client, authentication) = try call.provider.checkClient(call.parameters, request: call.request, tenant: authority.tenant,
                                                       directory: call.directory, context: call.scope, requireCredential: true)
        guard !record.redeemed else { throw .codeAlreadyRedeemed() }
        guard client.clientID == record.clientID else { throw .codeIssuedToAnotherClient() }
        guard call.provider.clock.now() < record.expiresAt else { throw .codeExpired() }
        guard policy.lowercased() == authority.policy.pathName else {
            throw .grantForOtherPolicy(actual: authority.policy.pathName, expected: policy.lowercased())
        }
        guard call.parameters["redirect_uri"] == record.redirectURI else { throw .codeRedirectURIMismatch() }
        try PKCE.check(verifier: call.parameters["code_verifier"], challenge: record.codeChallenge, method: record.codeChallengeMethod)
        guard let user = call.directory.user(record.username, in: authority.tenant), user.objectID == record.userObjectID else {
            throw .refreshTokenUserGone()
        }
        let scopes = try B2CScopeRequest(call.parameters["scope"] ?? record.scope, client: client, tenant: authority.tenant, directory: call.directory)
        guard call.provider.authorizationCodes.redeem(code) else { throw .codeAlreadyRedeemed() }
        let grant = B2CGrant(client: client, authority: authority, scopes: scopes, issuedAt: call.provider.clock.now(), authTime: record.authTime,
                             nonce: record.nonce, newUser: record.newUser, includeClientInfo: call.parameters["client_info"] == "1")
        return try call.b2cTokenResponse(grant, user: user, clientAuthentication: authentication)
    }
}
