import MockIDPJOSE

/// The authorize endpoint's logic: the request's checks, and what it answers once a user signed in (by the page or
/// the browser session). `MockIDP` turns the decisions into pages and redirects.
package struct AuthorizeEndpoint {
    let provider: IdentityProvider

    /// Checks an authorize request in Entra's order (docs/entra-behaviour.md, "Authorize requests"): until the client
    /// and its redirect URI are verified every error is an error page; after that errors go back to the redirect URI.
    package func checkAuthorization(_ request: AuthorizationRequest, scope: RequestScope) -> AuthorizationDecision {
        let b2c = scope.b2c
        let decision = AuthorizationChecks(request: request, b2c: b2c, directory: scope.directory).decision()
        // B2C: the same checks; their errors carry B2C's words, which the renderer picks at a B2C policy.
        guard let b2c, case .signIn(var validated) = decision else { return decision }
        // A ROPC policy has no pages: once client and redirect URI check out, its error goes to the app.
        guard b2c.policy.kind != .ropc else {
            return .redirectError(.ropcPolicyHasNoAuthorize(b2c.policy.name), redirectURI: validated.redirectURI,
                                  mode: validated.responseMode, state: validated.state)
        }
        validated.b2c = b2c
        return .signIn(validated)
    }

    /// The user signed in (by the page or the browser session): issues what `response_type` asked for and returns
    /// the parameters of the response in Entra's order (`code`, `access_token`…, `id_token`, `client_info`, `state`,
    /// `session_state`). Hybrid ID tokens carry `c_hash` and `at_hash` (OpenID Connect Core §3.3.2.11).
    package func authorize(_ request: ValidatedAuthorization, user: User, tenant: Tenant, authTime: Int, sessionID: String,
                          newUser: Bool = false, context: RequestScope) -> Result<[(name: String, value: String)], OAuthError> {
        if let refusal = context.refusal(serving: tenant) { return .failure(refusal) }
        let directory = context.directory
        var response: [(name: String, value: String)] = []
        var code: String?
        if request.responseTypes.contains(.code) {
            let issued = "1.A" + Base64URL.encode(provider.random.bytes(48))
            let record = AuthorizationCode(
                clientID: request.client.clientID, redirectURI: request.redirectURI, tenantID: tenant.id,
                userObjectID: user.objectID, username: user.username, scope: request.scope, nonce: request.nonce,
                codeChallenge: request.codeChallenge, codeChallengeMethod: request.codeChallengeMethod,
                authTime: authTime, maxAgeRequested: request.maxAge != nil,
                expiresAt: provider.clock.now() + directory.configuration.tokens.codeLifetime, policy: request.b2c?.policy.name, newUser: newUser,
                resource: request.resource)
            let now = provider.clock.now()
            provider.authorizationCodes.issue(issued, record, now: now)
            response.append(("code", issued))
            code = issued
        }
        if let b2c = request.b2c, request.responseTypes.contains(.token) || request.responseTypes.contains(.idToken) {
            do throws(OAuthError) {
                response += try b2cImplicitTokens(request, b2c: b2c, user: user, authTime: authTime, code: code,
                                                  newUser: newUser, context: context)
            } catch {
                return .failure(error)
            }
        } else if request.responseTypes.contains(.token) || request.responseTypes.contains(.idToken) {
            do throws(OAuthError) {
                let scopes = try ScopeRequest(request.scope, tenant: tenant, directory: directory,
                                              graphResource: context.cloud(for: tenant).graphResource)
                var grant = Grant(client: request.client, clientAuthentication: .none, scopes: scopes, applicationResource: nil,
                                  applicationResourceIdentifier: nil, issuedAt: provider.clock.now(), authenticationMethods: ["pwd"],
                                  nonce: request.nonce, includeClientInfo: false)
                if request.maxAge != nil { grant.authTime = authTime }
                grant.signInTime = authTime
                let factory = provider.frontChannelTokenFactory(directory, context, tenant: tenant, clientID: request.client.clientID)
                let version = TokenVersion(request.version)
                response += try Self.frontChannelTokens(
                    request, code: code, lifetime: factory.lifetime,
                    accessToken: { () throws(OAuthError) in try factory.userAccessToken(grant, user: user, tenant: tenant) },
                    idToken: { hashes throws(OAuthError) in
                        try factory.idToken(grant, user: user, tenant: tenant, version: version, hashes: hashes)
                    })
            } catch {
                return .failure(error)
            }
        }
        if request.includeClientInfo {
            let info = request.b2c.map { TokenFactory.b2cClientInfo(user: user, authority: $0) } ?? provider.tokenFactory(directory, context, tenant: tenant).clientInfo(user: user, tenant: tenant)
            response.append(("client_info", info))
        }
        if let state = request.state { response.append(("state", state)) }
        response.append(("session_state", sessionID))
        return .success(response)
    }

    /// `c_hash` / `at_hash`: base64url of the left half of SHA-256 of the value's ASCII bytes.
    static func halfHash(_ value: String) -> String {
        Base64URL.encode(Digest.sha256(Array(value.utf8)).prefix(16))
    }

    /// The tokens of an implicit or hybrid response, Entra's or B2C's: `access_token` when asked for (and
    /// `accessToken` makes one), then `id_token` with `c_hash` and `at_hash` (OpenID Connect Core §3.3.2.11).
    static func frontChannelTokens(_ request: ValidatedAuthorization, code: String?, lifetime: Int,
                                   accessToken: () throws(OAuthError) -> String?,
                                   idToken: (TokenFactory.TokenHashes) throws(OAuthError) -> String)
        throws(OAuthError) -> [(name: String, value: String)] {
        var response: [(name: String, value: String)] = []
        var issuedAccessToken: String?
        if request.responseTypes.contains(.token), let token = try accessToken() {
            issuedAccessToken = token
            response += [("access_token", token), ("token_type", "Bearer"),
                         ("expires_in", String(lifetime)), ("scope", request.scope)]
        }
        if request.responseTypes.contains(.idToken) {
            let hashes = TokenFactory.TokenHashes(code: code.map(Self.halfHash), accessToken: issuedAccessToken.map(Self.halfHash))
            response.append(("id_token", try idToken(hashes)))
        }
        return response
    }
}
