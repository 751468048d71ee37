import MockIDPJOSE

/// A code from this tenant's authorize endpoint, redeemed once, by its client, with its redirect URI and PKCE
/// verifier (Entra's checks: `TokenCall.redeemCode`), at the policy that issued it.
struct B2CAuthorizationCodeGrant: GrantHandler {
    func issue(_ call: TokenCall) throws(OAuthError) -> TokenResponse {
        guard let authority = call.scope.b2c else { preconditionFailure("B2C grants run at B2C user flows") }
        let redeemed = try call.redeemCode(
            tenant: { record in record.policy != nil && record.tenantID == authority.tenant.id ? authority.tenant : nil },
            dialectCheck: { record throws(OAuthError) in
                let policy = record.policy?.lowercased() ?? ""
                guard policy == authority.policy.pathName else {
                    throw .grantForOtherPolicy(actual: authority.policy.pathName, expected: policy)
                }
            },
            scopes: { record, client, tenant throws(OAuthError) in
                try B2CScopeRequest(call.parameters["scope"] ?? record.scope, client: client, tenant: tenant, directory: call.directory)
            })
        let record = redeemed.record
        let grant = B2CGrant(client: redeemed.client, authority: authority, scopes: redeemed.scopes, issuedAt: call.provider.clock.now(),
                             authTime: record.authTime, nonce: record.nonce, newUser: record.newUser,
                             includeClientInfo: call.parameters["client_info"] == "1")
        return try call.b2cTokenResponse(grant, user: redeemed.user, clientAuthentication: redeemed.authentication)
    }
}
