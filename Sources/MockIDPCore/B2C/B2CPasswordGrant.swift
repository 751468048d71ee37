import MockIDPJOSE

/// The ROPC user flow: a public client sends a local account's sign-in name and password (B2C's
/// add-ropc-policy article); the tokens are the policy's, with no `newUser` and no nonce.
struct B2CPasswordGrant: GrantHandler {
    func issue(_ call: TokenCall) throws(OAuthError) -> TokenResponse {
        guard let authority = call.scope.b2c else { preconditionFailure("B2C grants run at B2C user flows") }
        // Only a ROPC policy takes the password grant; at any other it is as unknown as any other grant type.
        guard authority.policy.kind == .ropc else { throw .b2cUnsupportedGrantType("password") }
        let username = try call.parameters.required("username")
        let password = try call.parameters.required("password")
        let (client, authentication) = try call.checkClient(tenant: authority.tenant, requireCredential: false)
        guard !client.isConfidential else { throw .ropcNotEnabled(clientID: client.clientID) }
        // B2C's ROPC article: the app needs "Allow public client flows" and oauth2AllowImplicitFlow (AADB2C90057 without).
        guard client.enableAccessTokenIssuance else { throw .responseTypeNotEnabled("token") }
        guard let user = call.directory.user(username, in: authority.tenant) else {
            throw .b2cInvalidCredentials(username: username, unknownUser: true)
        }
        guard password.isSameSecret(as: user.password) else { throw .b2cInvalidCredentials(username: username, unknownUser: false) }
        let scopes = try B2CScopeRequest(try call.parameters.required("scope"), client: client, tenant: authority.tenant, directory: call.directory)
        let now = call.provider.clock.now()
        let grant = B2CGrant(client: client, authority: authority, scopes: scopes, issuedAt: now, authTime: now,
                             nonce: nil, newUser: false, includeClientInfo: call.parameters["client_info"] == "1")
        return try call.b2cTokenResponse(grant, user: user, clientAuthentication: authentication)
    }
}
