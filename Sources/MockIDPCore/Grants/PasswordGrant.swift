import MockIDPJOSE

/// `grant_type=password` (ROPC): public and confidential clients; MFA users get AADSTS50076.
struct PasswordGrant: GrantHandler {
    func issue(_ call: TokenCall) throws(OAuthError) -> TokenResponse {
        let username = try call.parameters.required("username")
        let tenant = try call.authority.tenant(forUser: username, in: call.directory)
        let (client, authentication) = try call.checkClient(tenant: tenant, requireCredential: true)
        let password = try call.parameters.required("password")
        // A tenant with `signIn.anyUser` makes the user on the fly here too (docs/sign-in.md, "Users made on the fly"): ROPC is
        // how headless tests sign in, and the password grant has no page on which to bring claims.
        let user = try call.provider.usersOnTheFly.authenticatedUser(username, password: password, tenant: tenant, directory: call.directory)
        let scopes = try call.userScopes(stored: nil, tenant: tenant)
        // Entra: ROPC cannot do MFA at all; mockidp lets a request whose `claims` ask for MFA stand for a user
        // who answered the challenge, so a test can play the whole challenge round trip (docs/control-api.md).
        if user.requireMFA, !(call.scope.claims?.asksForMultiFactor ?? false) {
            throw .multiFactorRequired(resource: scopes.resource.displayName)
        }
        try call.provider.consentPolicy.checkUserConsent(client: client, user: user, tenant: tenant, scopes: scopes, scope: call.scope)
        let grant = Grant(client: client, clientAuthentication: authentication,
                          scopes: scopes, applicationResource: nil, applicationResourceIdentifier: nil,
                          issuedAt: call.provider.clock.now(), authenticationMethods: ["pwd"], nonce: nil,
                          includeClientInfo: call.parameters["client_info"] == "1")
        return try call.userTokenResponse(grant, user: user, tenant: tenant)
    }
}
