import MockIDPJOSE

/// The token endpoint: reads the parameters and the `claims` request, then hands the request to its grant in
/// `GrantTable`, by dialect and grant type.
struct TokenEndpoint {
    let provider: IdentityProvider

    /// The tokens `request` asks for, or Entra's (or B2C's) error, checked in Entra's order.
    func answer(_ request: TokenRequest, scope context: RequestScope) -> Result<TokenResponse, OAuthError> {
        do throws(OAuthError) {
            let parameters = try TokenParameters(request)
            var context = context
            if let claims = parameters["claims"] {
                guard let parsed = ClaimsRequest(json: claims) else { throw .invalidClaimsParameter() }
                context.claims = parsed
            }
            let name = try parameters.required("grant_type")
            switch context.dialect {
            case .b2c(let b2c):
                guard let grant = GrantTable.b2c[name] else { throw .b2cUnsupportedGrantType(name) }
                let call = TokenCall(provider: provider, parameters: parameters, request: request, scope: context, authority: .tenant(b2c.tenant))
                return .success(try grant.issue(call))
            case .externalID(let tenant):
                guard let grant = GrantTable.externalID[name] else { throw .unsupportedGrantType(name) }
                let call = TokenCall(provider: provider, parameters: parameters, request: request, scope: context, authority: .tenant(tenant))
                return .success(try grant.issue(call))
            case .entra:
                guard let authority = Authority(segment: request.tenant, directory: context.directory) else {
                    throw .tenantNotFound(request.tenant, forDiscovery: false)
                }
                guard let grantType = GrantType(name, version: request.version), let grant = GrantTable.entra[grantType] else {
                    throw .unsupportedGrantType(name)
                }
                let call = TokenCall(provider: provider, parameters: parameters, request: request, scope: context, authority: authority)
                return .success(try grant.issue(call))
            }
        } catch {
            return .failure(error)
        }
    }
}

/// What several grants share: the client's credential, the scopes of a user grant and the user grant's response.
extension TokenCall {
    /// Finds the client in the tenant and checks its credential (secret in the body or HTTP Basic, or a client
    /// assertion: signed with a registered certificate, or a federated token). Returns the client and how it authenticated.
    func checkClient(tenant: Tenant, requireCredential: Bool) throws(OAuthError) -> (Application, ClientAuthenticationMethod) {
        guard let clientID = parameters["client_id"] ?? request.basicCredentials?.clientID else {
            throw .missingParameter("client_id")
        }
        if let basic = request.basicCredentials, basic.clientID != clientID {
            throw OAuthError(code: .invalidClient, aadsts: 7000215, message: "Invalid client secret provided.", b2c: .wrongClientSecret,
                             status: 401, reason: "the client id in Authorization: Basic differs from client_id")
        }
        guard let client = directory.app(clientID, in: tenant) else {
            throw .unknownClient(clientID, tenant: tenant.id)
        }
        let secret = parameters["client_secret"] ?? request.basicCredentials?.secret
        let assertion = parameters["client_assertion"]
        if !client.isConfidential {
            if secret != nil || assertion != nil { throw .publicClientSentCredential() }
            return (client, .none)
        }
        if let secret {
            guard let expected = client.secret, secret.isSameSecret(as: expected) else {
                throw .invalidClientSecret(clientID: client.clientID)
            }
            return (client, .secret)
        }
        if let assertion {
            try checkClientAssertion(assertion, type: parameters["client_assertion_type"], client: client, tenant: tenant)
            return (client, .certificate)
        }
        if requireCredential { throw .missingClientCredential() }
        return (client, .none)
    }

    /// The scopes of a user grant. A v1 request names one API by `resource` (see `ScopeRequest(v1Resource:)`), or
    /// redeems a code or refresh token issued for one (`storedResource`); otherwise `scope` is used, or `stored`,
    /// the scopes of the code or refresh token being redeemed.
    ///
    /// At the v1 endpoint `scope` never names the API: Entra reads only its OpenID Connect meaning there, and v1
    /// user grants for a resource always answer with an ID token and a refresh token. ADAL for iOS and macOS
    /// redeems a code with `scope=openid` and no `resource` (ADALAuthenticationRequest+AcquireToken.m,
    /// `requestTokenByCode:`), and refreshes with `resource` and `scope=openid` (ADALAcquireTokenSilentHandler.m);
    /// Microsoft Learn, "Authorize access to Azure AD web applications using the OAuth 2.0 code grant flow" (v1):
    /// `resource` "is required in one of either the authorization or token requests", and `scope` is ignored.
    func userScopes(stored: String?, storedResource: String? = nil, tenant: Tenant) throws(OAuthError) -> ScopeRequest {
        let graph = scope.cloud(for: tenant).graphResource
        if request.version == .v1, let resource = parameters["resource"] ?? storedResource {
            return try ScopeRequest(v1Resource: resource, tenant: tenant, directory: directory, graphResource: graph)
        }
        guard let scope = parameters["scope"] ?? stored else {
            throw .missingParameter(request.version == .v1 ? "resource" : "scope")
        }
        return try ScopeRequest(scope, tenant: tenant, directory: directory, graphResource: graph)
    }

    /// Builds the token response for a user grant (docs/entra-behaviour.md, "Token responses"): v2's shape, or v1's for
    /// the v1 endpoint (numbers as strings, `expires_on`, `not_before`, `resource`, and the granted scopes in `scope`).
    func userTokenResponse(_ grant: Grant, user: User, tenant: Tenant) throws(OAuthError) -> TokenResponse {
        guard let scopes = grant.scopes else { preconditionFailure("user grants carry scopes") }
        if let refusal = scope.refusal(serving: tenant) { throw refusal }
        let version = request.version
        let factory = provider.tokenFactory(directory, scope, tenant: tenant, clientID: grant.client.clientID, username: user.username)
        let accessToken = try factory.userAccessToken(grant, user: user, tenant: tenant)
        let refreshToken = scopes.wantsRefreshToken
            ? provider.refreshTokens.issue(for: grant, user: user, tenant: tenant, lifetime: directory.configuration.tokens.refreshLifetime) : nil
        let idToken = scopes.wantsIDToken ? try factory.idToken(grant, user: user, tenant: tenant, version: TokenVersion(version)) : nil
        let body = EntraTokenBody(
            version: version,
            scope: version == .v1 ? factory.delegatedScopes(grant).joined(separator: " ") : scopes.requested.joined(separator: " "),
            issuedAt: grant.issuedAt, lifetime: factory.lifetime,
            resource: version == .v1 ? scopes.resourceIdentifier ?? factory.cloud.graphResource : nil,
            accessToken: accessToken, refreshToken: refreshToken, idToken: idToken,
            clientInfo: grant.includeClientInfo ? factory.clientInfo(user: user, tenant: tenant) : nil, foci: grant.client.foci)
        return TokenResponse(body: body.json)
    }
}
