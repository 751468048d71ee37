extension IdentityProvider {
    /// `grant_type=password` (ROPC): public and confidential clients; MFA users get AADSTS50076.
    func password(_ parameters: TokenParameters, request: TokenRequest, authority: Authority,
                  directory: Directory, context: RequestScope) throws(OAuthError) -> TokenResponse {
        let username = try parameters.required("username")
        let tenant = try tenantForUser(authority, username: username, directory: directory)
        let (client, authentication) = try checkClient(parameters, request: request, tenant: tenant,
                                                       directory: directory, context: context, requireCredential: true)
        let password = try parameters.required("password")
        // A tenant with `signIn.anyUser` makes the user on the fly here too (docs/sign-in.md, "Users made on the fly"): ROPC is
        // how headless tests sign in, and the password grant has no page on which to bring claims.
        let user = try authenticatedUser(username, password: password, tenant: tenant, directory: directory)
        let scopes = try userScopes(parameters, request: request, stored: nil, tenant: tenant, directory: directory, context: context)
        // Entra: ROPC cannot do MFA at all; mockidp lets a request whose `claims` ask for MFA stand for a user
        // who answered the challenge, so a test can play the whole challenge round trip (docs/control-api.md).
        if user.requireMFA, !(context.claims?.asksForMultiFactor ?? false) {
            throw .multiFactorRequired(resource: scopes.resource.displayName)
        }
        try checkUserConsent(client: client, user: user, tenant: tenant, scopes: scopes, context: context)
        let grant = Grant(client: client, clientAuthentication: authentication,
                          scopes: scopes, applicationResource: nil, applicationResourceIdentifier: nil,
                          issuedAt: clock.now(), authenticationMethods: ["pwd"], nonce: nil,
                          includeClientInfo: parameters["client_info"] == "1")
        return try userTokenResponse(grant, user: user, tenant: tenant, directory: directory, context: context, version: request.version)
    }
}
