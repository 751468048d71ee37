import MockIDPJOSE

/// A refresh token of this tenant's B2C policies, for its client and a user who still exists; the tokens
/// name the policy whose endpoint was called.
struct B2CRefreshTokenGrant: GrantHandler {
    func issue(_ call: TokenCall) throws(OAuthError) -> TokenResponse {
        guard let authority = call.scope.b2c else { preconditionFailure("B2C grants run at B2C user flows") }
        let token = try call.parameters.required("refresh_token")
        guard let record = call.provider.refreshTokens.open(token), record.policy != nil,
              record.tenantID == authority.tenant.id else { throw .invalidRefreshToken() }
        let (client, authentication) = try call.checkClient(tenant: authority.tenant, requireCredential: true)
        guard client.clientID == record.clientID else { throw .refreshTokenForOtherClient() }
        let now = call.provider.clock.now()
        guard now < record.expiresAt else {
            throw .expiredRefreshToken(issuedAt: EntraTime.iso8601(record.issuedAt), inactiveSeconds: now - record.issuedAt)
        }
        guard let user = call.directory.user(record.username, in: authority.tenant), user.objectID == record.userObjectID else {
            throw .refreshTokenUserGone()
        }
        let scopes = try B2CScopeRequest(call.parameters["scope"] ?? record.scope, client: client, tenant: authority.tenant, directory: call.directory)
        let grant = B2CGrant(client: client, authority: authority, scopes: scopes, issuedAt: now, authTime: record.issuedAt,
                             nonce: nil, newUser: false, includeClientInfo: call.parameters["client_info"] == "1")
        return try call.b2cTokenResponse(grant, user: user, clientAuthentication: authentication)
    }
}
