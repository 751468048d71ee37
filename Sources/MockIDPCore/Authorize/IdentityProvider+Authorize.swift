import MockIDPJOSE

extension IdentityProvider {
    /// Checks an authorize request in Entra's order (reference/entra-protocol.md §7): until the client and its
    /// redirect URI are verified every error is an error page; after that errors go back to the redirect URI.
    package func checkAuthorization(_ request: AuthorizationRequest) -> AuthorizationDecision {
        let b2c: B2CAuthority?
        switch b2cAuthority(tenantSegment: request.tenant, policy: request.policy, form: request.policyForm) {
        case .failure(let error): return .errorPage(error)
        case .success(let authority): b2c = authority
        }
        let decision = checkAuthorizationSteps(request, b2c: b2c)
        guard let b2c else { return decision }
        // B2C: the same checks, B2C's codes.
        let clientID = request.parameters.first { $0.name == "client_id" }?.value
        switch decision {
        case .errorPage(let error): return .errorPage(error.inB2CDialect(clientID: clientID, tenant: b2c.tenantSegment))
        case .redirectError(let error, let uri, let mode, let state):
            return .redirectError(error.inB2CDialect(clientID: clientID, tenant: b2c.tenantSegment), redirectURI: uri, mode: mode, state: state)
        case .signIn(var validated):
            // A ROPC policy has no pages: once client and redirect URI check out, its error goes to the app.
            guard b2c.policy.kind != .ropc else {
                return .redirectError(.ropcPolicyHasNoAuthorize(b2c.policy.name), redirectURI: validated.redirectURI,
                                      mode: validated.responseMode, state: validated.state)
            }
            validated.b2c = b2c
            return .signIn(validated)
        }
    }

    private func checkAuthorizationSteps(_ request: AuthorizationRequest, b2c: B2CAuthority?) -> AuthorizationDecision {
        var values: [String: String] = [:]
        for (name, value) in request.parameters {
            guard values[name] == nil else { return .errorPage(.duplicateParameter(name)) }
            values[name] = value
        }
        func value(_ name: String) -> String? { values[name].flatMap { $0.isEmpty ? nil : $0 } }

        let directory = snapshot()
        guard let authority = Authority(segment: request.tenant, directory: directory) else {
            return .errorPage(.tenantNotFound(request.tenant, forDiscovery: false))
        }
        guard let clientID = value("client_id") else { return .errorPage(.missingParameter("client_id")) }
        guard let client = authorizationClient(clientID, authority: authority, directory: directory) else {
            return .errorPage(.unknownClient(clientID, tenant: authority.specificTenant?.id ?? request.tenant))
        }
        let redirectURI: String
        if let asked = value("redirect_uri") {
            guard RedirectURI.match(asked, registered: client.redirectURIs) != nil else {
                return .errorPage(.unregisteredRedirectURI(asked, clientID: client.clientID))
            }
            redirectURI = asked
        } else if client.redirectURIs.count == 1, let only = client.redirectURIs.first {
            // Entra: without redirect_uri the app's only registered one is used.
            redirectURI = only
        } else {
            return .errorPage(.missingParameter("redirect_uri"))
        }

        // From here on, errors are sent to the verified redirect URI.
        let state = values["state"]
        let typesText = value("response_type") ?? ""
        let types = ResponseType.set(typesText) ?? []
        let requestedMode = value("response_mode")
        // The default mode follows the parts named, known or not, so an error about them goes back the same way.
        let named = Set(typesText.split(separator: " ").compactMap { ResponseType(rawValue: String($0)) })
        let fallbackMode: ResponseMode = requestedMode.flatMap(ResponseMode.init(rawValue:))
            ?? (named.contains(.idToken) || named.contains(.token) ? .fragment : .query)
        func fail(_ error: OAuthError) -> AuthorizationDecision {
            var e = error
            e.mayRedirect = true
            return .redirectError(e, redirectURI: redirectURI, mode: fallbackMode, state: state)
        }
        guard !typesText.isEmpty else { return fail(.missingParameter("response_type")) }
        guard !types.isEmpty, types != [.token, .code] else {
            return fail(.unsupportedResponseType(typesText))
        }
        // Entra: implicit and hybrid flows need the app's "ID tokens" / "Access tokens" settings.
        if types.contains(.idToken), !client.enableIDTokenIssuance { return fail(.responseTypeNotEnabled("id_token")) }
        if types.contains(.token), !client.enableAccessTokenIssuance { return fail(.responseTypeNotEnabled("token")) }
        if let requestedMode, ResponseMode(rawValue: requestedMode) == nil { return fail(.unsupportedResponseMode(requestedMode)) }
        if fallbackMode == .query, types != [.code] { return fail(.unsupportedResponseMode("query")) }

        guard var scope = value("scope") ?? (request.version == .v1 ? "openid" : nil) else { return fail(.missingParameter("scope")) }
        if request.version == .v1, let resource = value("resource") {
            // Entra (v1): the code is for `resource`, as v2's `{resource}/.default`; v1 codes always come back with
            // a refresh token. The token request may name another resource (v1 refresh tokens are multi-resource).
            scope += " offline_access " + ScopeRequest.v1DefaultScope(resource)
        }
        let scopeTenant = authority.specificTenant ?? directory.tenant(forUsername: value("login_hint") ?? "")
            ?? homeTenant(of: client, directory: directory)
        if let b2c {
            do { _ = try B2CScopeRequest(scope, client: client, tenant: b2c.tenant, directory: directory) } catch { return fail(error) }
        } else if let scopeTenant {
            do { _ = try ScopeRequest(scope, tenant: scopeTenant, directory: directory,
                                      graphResource: Cloud.named(scopeTenant.cloud).graphResource) } catch { return fail(error) }
        }
        if types.contains(.idToken) {
            guard value("nonce") != nil else { return fail(.missingParameter("nonce")) }
            guard scope.split(separator: " ").contains("openid") else {
                return fail(.invalidParameter("scope", "must include openid when response_type includes id_token"))
            }
        }

        var prompt: Prompt?
        if let text = value("prompt") {
            guard let known = Prompt(rawValue: text) else {
                return fail(.invalidParameter("prompt", "has the unsupported value '\(text)'"))
            }
            prompt = known
        }
        if prompt == .selectAccount, value("login_hint") != nil {
            // Entra: "You can't use both login_hint and prompt=select_account".
            return fail(.invalidParameter("login_hint", "cannot be used with prompt=select_account"))
        }
        var maxAge: Int?
        if let text = value("max_age") {
            guard let n = Int(text), n >= 0 else { return fail(.invalidParameter("max_age", "must be a whole number of seconds")) }
            maxAge = n
        }
        let challenge = value("code_challenge")
        var method = value("code_challenge_method")
        if let m = method, m != "S256", m != "plain" { return fail(.invalidCodeChallengeMethod(m)) }
        if challenge == nil, method != nil { return fail(.missingParameter("code_challenge")) }
        if challenge != nil, method == nil { method = "plain" }   // RFC 7636 §4.3
        if let challenge, !(43...128).contains(challenge.utf8.count) || !challenge.utf8.allSatisfy(Self.isPKCECharacter) {
            return fail(.invalidParameter("code_challenge", "must be 43 to 128 characters of [A-Za-z0-9-._~]"))
        }
        if client.type == .spa || client.requirePKCE, challenge == nil, types.contains(.code) { return fail(.pkceRequired()) }

        return .signIn(ValidatedAuthorization(
            tenant: authority.specificTenant, tenantSegment: request.tenant, client: client, redirectURI: redirectURI,
            responseTypes: types, responseMode: fallbackMode, scope: scope, state: state, nonce: value("nonce"),
            prompt: prompt, loginHint: value("login_hint"), domainHint: value("domain_hint"), maxAge: maxAge,
            codeChallenge: challenge, codeChallengeMethod: challenge == nil ? nil : method,
            includeClientInfo: value("client_info") == "1", version: request.version))
    }

    /// The user signed in (by the page or the browser session): issues what `response_type` asked for and returns
    /// the parameters of the response in Entra's order (`code`, `access_token`…, `id_token`, `client_info`, `state`,
    /// `session_state`). Hybrid ID tokens carry `c_hash` and `at_hash` (OpenID Connect Core §3.3.2.11).
    package func authorize(_ request: ValidatedAuthorization, user: User, tenant: Tenant, authTime: Int, sessionID: String,
                          newUser: Bool = false, context: RequestContext) -> Result<[(name: String, value: String)], OAuthError> {
        if let refusal = checkHost(serves: tenant, context: context) { return .failure(refusal) }
        let directory = snapshot()
        var response: [(name: String, value: String)] = []
        var code: String?
        if request.responseTypes.contains(.code) {
            let issued = "1.A" + Base64URL.encode(random.bytes(48))
            let record = AuthorizationCode(
                clientID: request.client.clientID, redirectURI: request.redirectURI, tenantID: tenant.id,
                userObjectID: user.objectID, username: user.username, scope: request.scope, nonce: request.nonce,
                codeChallenge: request.codeChallenge, codeChallengeMethod: request.codeChallengeMethod,
                authTime: authTime, maxAgeRequested: request.maxAge != nil,
                expiresAt: clock.now() + directory.configuration.tokens.codeLifetime, policy: request.b2c?.policy.name, newUser: newUser)
            let now = clock.now()
            authorizationCodes.withLock { $0.insert(issued, record, now: now) }
            response.append(("code", issued))
            code = issued
        }
        if let b2c = request.b2c, request.responseTypes.contains(.token) || request.responseTypes.contains(.idToken) {
            do throws(OAuthError) {
                response += try b2cImplicitTokens(request, b2c: b2c, user: user, authTime: authTime, code: code,
                                                  newUser: newUser, directory: directory, context: context)
            } catch {
                return .failure(error)
            }
        } else if request.responseTypes.contains(.token) || request.responseTypes.contains(.idToken) {
            do throws(OAuthError) {
                let scopes = try ScopeRequest(request.scope, tenant: tenant, directory: directory,
                                              graphResource: cloud(for: context, tenant: tenant).graphResource)
                var grant = Grant(client: request.client, clientAuthentication: .none, scopes: scopes, applicationResource: nil,
                                  applicationResourceIdentifier: nil, issuedAt: clock.now(), authenticationMethods: ["pwd"],
                                  nonce: request.nonce, includeClientInfo: false)
                if request.maxAge != nil { grant.authTime = authTime }
                let factory = tokenFactory(directory, context, tenant: tenant)
                let version = TokenVersion(request.version)
                response += try frontChannelTokens(
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
            let info = request.b2c.map { TokenFactory.b2cClientInfo(user: user, authority: $0) } ?? tokenFactory(directory, context, tenant: tenant).clientInfo(user: user, tenant: tenant)
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

    /// The app an authorize request names: registered in the path's tenant (or multi-tenant elsewhere); for
    /// common/organizations/consumers, registered anywhere.
    func authorizationClient(_ clientID: String, authority: Authority, directory: Directory) -> Application? {
        if let tenant = authority.specificTenant { return directory.app(clientID, in: tenant) }
        for tenant in directory.configuration.tenants {
            if let app = tenant.apps.first(where: { $0.clientID == clientID.lowercased() }) { return app }
        }
        return nil
    }

    func homeTenant(of client: Application, directory: Directory) -> Tenant? {
        directory.configuration.tenants.first { $0.apps.contains { $0.clientID == client.clientID } }
    }

    static func isPKCECharacter(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
            || b == UInt8(ascii: "-") || b == UInt8(ascii: ".") || b == UInt8(ascii: "_") || b == UInt8(ascii: "~")
    }
}

extension IdentityProvider {
    /// The tokens of an implicit or hybrid response, Entra's or B2C's: `access_token` when asked for (and
    /// `accessToken` makes one), then `id_token` with `c_hash` and `at_hash` (OpenID Connect Core §3.3.2.11).
    func frontChannelTokens(_ request: ValidatedAuthorization, code: String?, lifetime: Int,
                            accessToken: () throws(OAuthError) -> String?,
                            idToken: (TokenFactory.TokenHashes) throws(OAuthError) -> String) throws(OAuthError) -> [(name: String, value: String)] {
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
