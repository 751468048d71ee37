import MockIDPJOSE

/// `grant_type=client_credentials`: an app-only token for `{resource}/.default`, with `roles` from the
/// client's `apiPermissions` that the API defines (docs/entra-behaviour.md, "Grants" and "Access tokens").
struct ClientCredentialsGrant: GrantHandler {
    func issue(_ call: TokenCall) throws(OAuthError) -> TokenResponse {
        guard let tenant = call.authority.specificTenant else { throw .noTenantInformation() }
        let (client, authentication) = try call.checkClient(tenant: tenant, requireCredential: true)
        guard client.isConfidential else {
            throw .missingClientCredential()
        }
        let (resource, identifier) = try checkApplicationScope(call.parameters, request: call.request, tenant: tenant, directory: call.directory)
        let roles = Self.applicationRoles(client: client, resource: resource, cloud: call.scope.cloud(for: tenant))
        let grant = Grant(client: client, clientAuthentication: authentication,
                          scopes: nil, applicationResource: resource, applicationResourceIdentifier: identifier,
                          issuedAt: call.provider.clock.now(), authenticationMethods: [], nonce: nil, includeClientInfo: false)
        let factory = call.provider.tokenFactory(call.directory, call.scope, tenant: tenant, clientID: client.clientID, username: nil)
        let token = try factory.applicationAccessToken(grant, roles: roles, tenant: tenant)
        // Entra: no scope, refresh token, ID token or client_info for client credentials, even when asked; v1's shape
        // where a v1 request named its API by `resource`.
        let version: ProtocolVersion = call.request.version == .v1 && identifier != nil ? .v1 : .v2
        let body = EntraTokenBody(version: version, scope: nil, issuedAt: grant.issuedAt, lifetime: factory.lifetime,
                                  resource: identifier, accessToken: token)
        guard version == .v2 else { return TokenResponse(body: body.json) }
        return TokenResponse(body: body.json, appToken: Self.facts(of: token, grant: grant, resource: resource, factory: factory, scope: call.scope))
    }

    /// What the edge needs to answer the same request again from this answer, when the answer follows from the
    /// request and the directory snapshot alone (`AppTokenFacts`); nil when it does not.
    private static func facts(of token: String, grant: Grant, resource: APIResource, factory: TokenFactory,
                              scope: RequestScope) -> AppTokenFacts? {
        guard grant.clientAuthentication == .secret, scope.claims == nil, factory.extraClaims.isEmpty, factory.tamper == nil,
              resource.optionalAccessTokenClaims.isEmpty else { return nil }
        return AppTokenFacts(token: token, issuedAt: grant.issuedAt, lifetime: factory.lifetime, key: factory.key.privateKey,
                             algorithm: factory.key.header(version: resource.tokenVersion).algorithm,
                             generation: scope.directory.generation)
    }

    /// Client credentials take exactly one `{resource}/.default` scope (v2) or a `resource` (v1).
    private func checkApplicationScope(_ parameters: TokenParameters, request: TokenRequest, tenant: Tenant,
                                       directory: Directory) throws(OAuthError) -> (APIResource, String?) {
        let graph = Cloud.named(tenant.cloud).graphResource
        if request.version == .v1, let resource = parameters["resource"] {
            let scopes = try ScopeRequest(v1Resource: resource, tenant: tenant, directory: directory, graphResource: graph)
            return (scopes.resource, scopes.resourceIdentifier)
        }
        return try Self.applicationScope(try parameters.required("scope"), tenant: tenant, directory: directory)
    }

    /// The app roles `client` holds on `resource`: its `apiPermissions` there that the API defines.
    static func applicationRoles(client: Application, resource: APIResource, cloud: Cloud) -> [String] {
        // One array, not one a step (filter, flatMap, filter), each grown as it filled.
        var roles: [String] = []
        for permission in client.apiPermissions where resource.isNamed(permission.resource, graphResource: cloud.graphResource) {
            roles.reserveCapacity(roles.count + permission.values.count)
            for role in permission.values where resource.definesRole(role) { roles.append(role) }
        }
        return roles
    }

    /// The API of an app-only scope: exactly one `{resource}/.default`.
    static func applicationScope(_ scope: String, tenant: Tenant, directory: Directory) throws(OAuthError) -> (APIResource, String?) {
        guard ScopeRequest.isOneWord(scope), scope.hasSuffix("/.default") else { throw .clientCredentialsNeedDefaultScope(scope) }
        // The one word, checked as `ScopeRequest` checks each of its words, without splitting and collecting them.
        let word = scope.utf8.first == UInt8(ascii: " ") ? String(Substring(scope.utf8.drop { $0 == UInt8(ascii: " ") })) : scope
        let (resource, prefix, _) = try ScopeRequest.apiScope(word, tenant: tenant, directory: directory,
                                                             graphResource: Cloud.named(tenant.cloud).graphResource)
        return (resource, prefix)
    }
}
