import MockIDPJOSE

/// `grant_type=password` (ROPC): public and confidential clients; MFA users get AADSTS50076.
struct PasswordGrant: GrantHandler {
    func issue(_ call: TokenCall) throws(OAuthError) -> TokenResponse {
        let username = try call.parameters.required("username")
        let tenant = try call.provider.tenantForUser(call.authority, username: username, directory: call.directory)
        let (client, authentication) = try call.provider.checkClient(call.parameters, request: call.request, tenant: tenant,
                                                       directory: call.directory, context: call.scope, requireCredential: true)
        let password = try call.parameters.required("password")
        // A tenant with `signIn.anyUser` makes the user on the fly here too (docs/sign-in.md, "Users made on the fly"): ROPC is
        // how headless tests sign in, and the password grant has no page on which to bring claims.
        let user = try call.provider.authenticatedUser(username, password: password, tenant: tenant, directory: call.directory)
        let scopes = try call.provider.userScopes(call.parameters, request: call.request, stored: nil, tenant: tenant, directory: call.directory, context: call.scope)
        // Entra: ROPC cannot do MFA at all; mockidp lets a request whose `claims` ask for MFA stand for a user
        // who answered the challenge, so a test can play the whole challenge round trip (docs/control-api.md).
        if user.requireMFA, !(call.scope.claims?.asksForMultiFactor ?? false) {
            throw .multiFactorRequired(resource: scopes.resource.displayName)
        }
        try call.provider.checkUserConsent(client: client, user: user, tenant: tenant, scopes: scopes, context: call.scope)
        let grant = Grant(client: client, clientAuthentication: authentication,
                          scopes: scopes, applicationResource: nil, applicationResourceIdentifier: nil,
                          issuedAt: call.provider.clock.now(), authenticationMethods: ["pwd"], nonce: nil,
                          includeClientInfo: call.parameters["client_info"] == "1")
        return try call.provider.userTokenResponse(grant, user: user, tenant: tenant, directory: call.directory, context: call.scope, version: call.request.version)
    }
}
