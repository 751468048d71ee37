import MockIDPJOSE

extension IdentityProvider {
    /// `grant_type=client_credentials`: an app-only token for `{resource}/.default`, with `roles` from the
    /// client's `apiPermissions` that the API defines (reference/entra-protocol.md §3.4, §5.3).
    func clientCredentials(_ parameters: TokenParameters, request: TokenRequest, authority: Authority,
                           directory: Directory, context: RequestContext) throws(OAuthError) -> TokenResponse {
        guard let tenant = authority.specificTenant else { throw .noTenantInformation() }
        let (client, authentication) = try checkClient(parameters, request: request, tenant: tenant,
                                                       directory: directory, requireCredential: true)
        guard client.isConfidential else {
            throw .missingClientCredential()
        }
        let (resource, identifier) = try checkApplicationScope(parameters, request: request, tenant: tenant, directory: directory)
        let cloud = self.cloud(for: context, tenant: tenant)
        let roles = client.apiPermissions
            .filter { resource.isNamed($0.resource, graphResource: cloud.graphResource) }
            .flatMap(\.values)
            .filter { resource.definesRole($0) }
        let grant = Grant(client: client, clientAuthentication: authentication,
                          scopes: nil, applicationResource: resource, applicationResourceIdentifier: identifier,
                          issuedAt: clock.now(), authenticationMethods: [], nonce: nil, includeClientInfo: false)
        let lifetime = configuration.tokens.lifetime
        let token = try tokenFactory(context, tenant: tenant, clientID: client.clientID, username: nil).applicationAccessToken(grant, roles: roles, tenant: tenant)
        // Entra: no scope, refresh token, ID token or client_info for client credentials, even when asked.
        return TokenResponse(body: [
            "token_type": "Bearer",
            "expires_in": .int(lifetime),
            "ext_expires_in": .int(lifetime),
            "access_token": .string(token),
        ])
    }

    /// Client credentials take exactly one `{resource}/.default` scope (v2) or a `resource` (v1).
    private func checkApplicationScope(_ parameters: TokenParameters, request: TokenRequest, tenant: Tenant,
                                       directory: Directory) throws(OAuthError) -> (APIResource, String?) {
        let scope: String
        if request.version == .v1, let resource = parameters["resource"] {
            scope = resource.hasSuffix("/") ? resource + ".default" : resource + "/.default"
        } else {
            scope = try parameters.required("scope")
        }
        let parts = scope.split(separator: " ")
        guard parts.count == 1, scope.hasSuffix("/.default") else { throw .clientCredentialsNeedDefaultScope(scope) }
        let request = try ScopeRequest(scope, tenant: tenant, directory: directory,
                                       graphResource: Cloud.named(tenant.cloud).graphResource)
        return (request.resource, request.resourceIdentifier)
    }
}
