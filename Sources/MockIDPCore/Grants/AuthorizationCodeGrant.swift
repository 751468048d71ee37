import MockIDPJOSE

/// `grant_type=authorization_code`: a code is redeemed once, by the client it was issued to, with the same
/// redirect URI, before `tokens.codeLifetime` passes, and with the PKCE verifier when a challenge was sent
/// (docs/entra-behaviour.md, "PKCE and authorization codes"; the checks are `TokenCall.redeemCode`'s).
struct AuthorizationCodeGrant: GrantHandler {
    func issue(_ call: TokenCall) throws(OAuthError) -> TokenResponse {
        let redeemed = try call.redeemCode(
            tenant: { record in
                // Entra's codes only (no policy), at their own tenant or an alias of every tenant.
                guard record.policy == nil, let tenant = call.directory.tenant(record.tenantID) else { return nil }
                if let specific = call.authority.specificTenant, specific.id != tenant.id { return nil }
                return tenant
            },
            scopes: { record, _, tenant throws(OAuthError) in
                try call.userScopes(stored: record.scope, storedResource: record.resource, tenant: tenant)
            })
        let record = redeemed.record
        var grant = Grant(client: redeemed.client, clientAuthentication: redeemed.authentication, scopes: redeemed.scopes,
                          applicationResource: nil, applicationResourceIdentifier: nil, issuedAt: call.provider.clock.now(),
                          authenticationMethods: ["pwd"], nonce: record.nonce, includeClientInfo: call.parameters["client_info"] == "1")
        if record.maxAgeRequested { grant.authTime = record.authTime }
        grant.signInTime = record.authTime
        return try call.userTokenResponse(grant, user: redeemed.user, tenant: redeemed.tenant)
    }
}
