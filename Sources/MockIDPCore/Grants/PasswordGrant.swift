import MockIDPJOSE

/// `grant_type=password` (ROPC): public and confidential clients; MFA users get AADSTS50076.
struct PasswordGrant: GrantHandler {
    func issue(_ call: TokenCall) throws(OAuthError) -> TokenResponse {
        let provider = call.provider
        let parameters = call.parameters
        let request = call.request
        let authority = call.authority
        let directory = call.directory
        let context = call.scope
        let username = try parameters.required("username")
        let tenant = try provider.tenantForUser(authority, username: username, directory: directory)
        let (client, authentication) = try provider.checkClient(parameters, request: request, tenant: tenant,
                                                       directory: directory, context: context, requireCredential: true)
        let password = try parameters.required("password")
        // A tenant with `signIn.anyUser` makes the user on the fly here too (docs/sign-in.md, "Users made on the fly"): ROPC is
        // how headless tests sign in, and the password grant has no page on which to bring claims.
        let user = try provider.authenticatedUser(username, password: password, tenant: tenant, directory: directory)
        let scopes = try provider.userScopes(parameters, request: request, stored: nil, tenant: tenant, directory: directory, context: context)
        // Entra: ROPC cannot do MFA at all; mockidp lets a request whose `claims` ask for MFA stand for a user
        // who answered the challenge, so a test can play the whole challenge round trip (docs/control-api.md).
        if user.requireMFA, !(context.claims?.asksForMultiFactor ?? false) {
            throw .multiFactorRequired(resource: scopes.resource.displayName)
        }
        try provider.checkUserConsent(client: client, user: user, tenant: tenant, scopes: scopes, context: context)
        let grant = Grant(client: client, clientAuthentication: authentication,
                          scopes: scopes, applicationResource: nil, applicationResourceIdentifier: nil,
                          issuedAt: provider.clock.now(), authenticationMethods: ["pwd"], nonce: nil,
                          includeClientInfo: parameters["client_info"] == "1")
        return try provider.userTokenResponse(grant, user: user, tenant: tenant, directory: directory, context: context, version: request.version)
    }
}
