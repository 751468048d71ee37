import MockIDPJOSE

extension IdentityProvider {
    /// The token endpoint: checks the request in Entra's order and returns tokens or Entra's error.
    public func token(_ request: TokenRequest, context: RequestContext) -> Result<TokenResponse, OAuthError> {
        do throws(OAuthError) {
            let parameters = try TokenParameters(request)
            let grantType = try parameters.required("grant_type")
            var context = context
            if let claims = parameters["claims"] {
                guard let parsed = ClaimsRequest(json: claims) else { throw .invalidClaimsParameter() }
                context.claims = parsed
            }
            let directory = self.directory
            guard let authority = Authority(segment: request.tenant, directory: directory) else {
                throw .tenantNotFound(request.tenant, forDiscovery: false)
            }
            switch grantType {
            case "client_credentials":
                return .success(try clientCredentials(parameters, request: request, authority: authority, directory: directory, context: context))
            case "password":
                return .success(try password(parameters, request: request, authority: authority, directory: directory, context: context))
            case "authorization_code":
                return .success(try authorizationCode(parameters, request: request, authority: authority, directory: directory, context: context))
            case "urn:ietf:params:oauth:grant-type:device_code":
                return .success(try deviceCodeGrant(parameters, request: request, authority: authority, directory: directory, context: context))
            case "refresh_token":
                return .success(try refreshToken(parameters, request: request, authority: authority, directory: directory, context: context))
            default:
                throw .unsupportedGrantType(grantType)
            }
        } catch {
            return .failure(error)
        }
    }

    /// Finds the client in the tenant and checks its credential (secret in the body or HTTP Basic).
    /// Returns the client and its `appidacr`: `0` public, `1` secret, `2` certificate.
    func checkClient(_ parameters: TokenParameters, request: TokenRequest, tenant: Tenant, directory: Directory,
                     requireCredential: Bool) throws(OAuthError) -> (Application, String) {
        guard let clientID = parameters["client_id"] ?? request.basicCredentials?.clientID else {
            throw .missingParameter("client_id")
        }
        if let basic = request.basicCredentials, basic.clientID != clientID {
            throw OAuthError(error: "invalid_client", aadsts: 7000215, message: "Invalid client secret provided.",
                             status: 401, reason: "the client id in Authorization: Basic differs from client_id")
        }
        guard let client = directory.app(clientID, in: tenant) else {
            throw .unknownClient(clientID, tenant: tenant.id)
        }
        let secret = parameters["client_secret"] ?? request.basicCredentials?.secret
        let assertion = parameters["client_assertion"]
        if !client.isConfidential {
            if secret != nil || assertion != nil { throw .publicClientSentCredential() }
            return (client, "0")
        }
        if let secret {
            guard let expected = client.secret, constantTimeEqual(secret, expected) else {
                throw .invalidClientSecret(clientID: client.clientID)
            }
            return (client, "1")
        }
        if assertion != nil {
            // Certificate credentials arrive with the client-assertion work (issue 5).
            throw .unsupportedClientAssertion()
        }
        if requireCredential { throw .missingClientCredential() }
        return (client, "0")
    }

    /// Compares secrets in time independent of where they differ.
    func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var diff: UInt8 = 0
        for i in 0..<x.count { diff |= x[i] ^ y[i] }
        return diff == 0
    }

    /// The tenant a user grant runs in: the path's tenant, or for common/organizations the tenant of the UPN's domain.
    func tenantForUser(_ authority: Authority, username: String, directory: Directory) throws(OAuthError) -> Tenant {
        switch authority {
        case .tenant(let t): return t
        case .common, .organizations:
            guard let t = directory.tenant(forUsername: username) else {
                throw .unknownUser(username, tenant: authority.pathSegment)
            }
            return t
        case .consumers:
            guard let t = directory.tenant(Authority.consumersTenantID) else {
                throw .unknownUser(username, tenant: Authority.consumersTenantID)
            }
            return t
        }
    }

    /// Builds the v2 token response for a user grant (reference/entra-protocol.md §4.1).
    func userTokenResponse(_ grant: Grant, user: User, tenant: Tenant, context: RequestContext,
                           version: ProtocolVersion) throws(OAuthError) -> TokenResponse {
        guard let scopes = grant.scopes else { preconditionFailure("user grants carry scopes") }
        let factory = tokenFactory(context, tenant: tenant, clientID: grant.client.clientID, username: user.username)
        let lifetime = configuration.tokens.lifetime
        var body = JSONObject()
        body["token_type"] = "Bearer"
        body["scope"] = .string(scopes.requested.joined(separator: " "))
        body["expires_in"] = .int(lifetime)
        body["ext_expires_in"] = .int(lifetime)
        body["access_token"] = .string(try factory.userAccessToken(grant, user: user, tenant: tenant))
        if scopes.wantsRefreshToken {
            body["refresh_token"] = .string(issueRefreshToken(grant, user: user, tenant: tenant))
        }
        if scopes.wantsIDToken {
            body["id_token"] = .string(try factory.idToken(grant, user: user, tenant: tenant, version: version == .v2 ? 2 : 1))
        }
        if grant.includeClientInfo {
            body["client_info"] = .string(TokenFactory.clientInfo(user: user, tenant: tenant))
        }
        return TokenResponse(body: .object(body))
    }
}
