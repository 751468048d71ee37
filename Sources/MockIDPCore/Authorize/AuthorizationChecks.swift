/// The checks of an authorize request, as named steps in Entra's order (docs/entra-behaviour.md, "Authorize requests").
/// Until the client and its redirect URI are verified a failure is shown on the error page; after that it goes back to
/// the redirect URI. Each step reads what the steps before it established and adds to it.
package struct AuthorizationChecks {
    /// Why a step stopped the request, and how the error travels.
    package enum Failure: Error {
        case errorPage(OAuthError)
        case redirect(OAuthError)
    }

    /// The steps, in order; `decision()` runs them until one fails.
    static let steps: [(name: String, run: @Sendable (inout AuthorizationChecks) throws(Failure) -> Void)] = [
        ("parameters", { (c: inout AuthorizationChecks) throws(Failure) in try c.checkParameters() }),
        ("tenant", { (c: inout AuthorizationChecks) throws(Failure) in try c.checkTenant() }),
        ("client", { (c: inout AuthorizationChecks) throws(Failure) in try c.checkClient() }),
        ("redirect URI", { (c: inout AuthorizationChecks) throws(Failure) in try c.checkRedirectURI() }),
        ("response type and mode", { (c: inout AuthorizationChecks) throws(Failure) in try c.checkResponseType() }),
        ("scope", { (c: inout AuthorizationChecks) throws(Failure) in try c.checkScope() }),
        ("prompt", { (c: inout AuthorizationChecks) throws(Failure) in try c.checkPrompt() }),
        ("max_age", { (c: inout AuthorizationChecks) throws(Failure) in try c.checkMaxAge() }),
        ("PKCE", { (c: inout AuthorizationChecks) throws(Failure) in try c.checkPKCE() }),
        ("sign-in claims", { (c: inout AuthorizationChecks) throws(Failure) in try c.checkSignInClaims() }),
    ]

    let request: AuthorizationRequest
    let b2c: B2CAuthority?
    let directory: Directory

    private var values: [String: String] = [:]
    private var authority: Authority?
    private var client: Application?
    private var redirectURI: String?
    private var types: Set<ResponseType> = []
    private var mode: ResponseMode = .query
    private var scope = ""
    private var prompt: Prompt?
    private var maxAge: Int?
    private var codeChallenge: String?
    private var codeChallengeMethod: String?
    private var signInClaims: ClaimSet?

    /// The checks of `request` against `directory` (`b2c`: the user flow the request names, nil for Entra).
    package init(request: AuthorizationRequest, b2c: B2CAuthority?, directory: Directory) {
        self.request = request
        self.b2c = b2c
        self.directory = directory
    }

    /// The step names, in the order they run.
    package static var stepNames: [String] { steps.map(\.name) }

    /// Runs the steps up to and including the one named `last` (all of them when nil): nil when they pass, else
    /// the failure, so a test can check one step with the steps before it.
    package func failure(runningThrough last: String? = nil) -> Failure? {
        var checks = self
        return checks.run(through: last)
    }

    /// Runs every step; the validated request, or where its error goes.
    func decision() -> AuthorizationDecision {
        var checks = self
        switch checks.run(through: nil) {
        case nil: return .signIn(checks.validated())
        case .errorPage(let e)?: return .errorPage(e)
        case .redirect(let e)?:
            return .redirectError(e, redirectURI: checks.redirectURI ?? "", mode: checks.mode, state: checks.values["state"])
        }
    }

    /// Runs the steps in order until one fails or `last` has run, keeping what they established.
    private mutating func run(through last: String?) -> Failure? {
        do throws(Failure) {
            for step in Self.steps {
                try step.run(&self)
                if step.name == last { break }
            }
        } catch {
            return error
        }
        return nil
    }

    private func value(_ name: String) -> String? { values[name].flatMap { $0.isEmpty ? nil : $0 } }

    /// An error for the verified redirect URI.
    private func fail(_ error: OAuthError) -> Failure {
        var e = error
        e.mayRedirect = true
        return .redirect(e)
    }

    /// Each parameter at most once.
    private mutating func checkParameters() throws(Failure) {
        for (name, value) in request.parameters {
            guard values[name] == nil else { throw .errorPage(.duplicateParameter(name)) }
            values[name] = value
        }
    }

    /// The path's tenant exists (or is `common`, `organizations`, `consumers`).
    private mutating func checkTenant() throws(Failure) {
        guard let authority = Authority(segment: request.tenant, directory: directory) else {
            throw .errorPage(.tenantNotFound(request.tenant, forDiscovery: false))
        }
        self.authority = authority
    }

    /// The client is registered in the tenant (or is a multi-tenant app).
    private mutating func checkClient() throws(Failure) {
        guard let authority else { preconditionFailure("the tenant step runs first") }
        guard let clientID = value("client_id") else { throw .errorPage(.missingParameter("client_id")) }
        guard let client = directory.authorizationClient(clientID, authority: authority) else {
            throw .errorPage(.unknownClient(clientID, tenant: authority.specificTenant?.id ?? request.tenant))
        }
        self.client = client
    }

    /// The redirect URI is registered; without one, the app's only registered URI.
    private mutating func checkRedirectURI() throws(Failure) {
        guard let client else { preconditionFailure("the client step runs first") }
        if let asked = value("redirect_uri") {
            guard RedirectURI.match(asked, registered: client.redirectURIs) != nil else {
                throw .errorPage(.unregisteredRedirectURI(asked, clientID: client.clientID))
            }
            redirectURI = asked
        } else if client.redirectURIs.count == 1, let only = client.redirectURIs.first, !RedirectURI.hasDangerousScheme(only) {
            // Entra: without redirect_uri the app's only registered one is used.
            redirectURI = only
        } else {
            throw .errorPage(.missingParameter("redirect_uri"))
        }
    }

    /// `response_type` and `response_mode`: known, allowed for the app, and a mode that can carry them. From here on,
    /// errors are sent to the verified redirect URI.
    private mutating func checkResponseType() throws(Failure) {
        guard let client else { preconditionFailure("the client step runs first") }
        let typesText = value("response_type") ?? ""
        types = ResponseType.set(typesText) ?? []
        let requestedMode = value("response_mode")
        // The default mode follows the parts named, known or not, so an error about them goes back the same way.
        let named = Set(typesText.split(separator: " ").compactMap { ResponseType(rawValue: String($0)) })
        mode = requestedMode.flatMap(ResponseMode.init(rawValue:))
            ?? (named.contains(.idToken) || named.contains(.token) ? .fragment : .query)
        guard !typesText.isEmpty else { throw fail(.missingParameter("response_type")) }
        guard !types.isEmpty, types != [.token, .code] else { throw fail(.unsupportedResponseType(typesText)) }
        // Entra: implicit and hybrid flows need the app's "ID tokens" / "Access tokens" settings.
        if types.contains(.idToken), !client.enableIDTokenIssuance { throw fail(.responseTypeNotEnabled("id_token")) }
        if types.contains(.token), !client.enableAccessTokenIssuance { throw fail(.responseTypeNotEnabled("token")) }
        if let requestedMode, ResponseMode(rawValue: requestedMode) == nil { throw fail(.unsupportedResponseMode(requestedMode)) }
        if mode == .query, types != [.code] { throw fail(.unsupportedResponseMode("query")) }
    }

    /// The scopes exist for the client (B2C's rules at a B2C policy); `openid` and a nonce with an ID token.
    private mutating func checkScope() throws(Failure) {
        guard let authority, let client else { preconditionFailure("the tenant and client steps run first") }
        guard var scope = value("scope") ?? (request.version == .v1 ? "openid" : nil) else { throw fail(.missingParameter("scope")) }
        if request.version == .v1 {
            // Entra (v1): `scope` counts only for its OpenID Connect scopes; what the token is for comes from
            // `resource` and the app's registered permissions (v1 code-grant page; react-native-app-auth's Azure
            // guide: "Scopes is ignored" at v1). social-auth-core's v1 and tenant backends send `openid profile
            // user_impersonation email` by default, with or without `resource` (AzureADOAuth2.DEFAULT_SCOPE). A
            // request with neither `resource` nor an OpenID Connect scope keeps its scopes (a Graph scope names Graph).
            let openID = ScopeRequest.words(scope).filter(ScopeRequest.isOpenIDScope)
            if value("resource") != nil || !openID.isEmpty { scope = openID.joined(separator: " ") }
            if let resource = value("resource") {
                // The code is for `resource`, as v2's `{resource}/.default`; v1 codes always come back with a refresh
                // token. The token request may name another resource (v1 refresh tokens are multi-resource).
                scope += " offline_access " + ScopeRequest.v1DefaultScope(resource)
            }
        }
        // The code keeps the scope and nonce until it expires: longer ones than it keeps are refused first.
        guard scope.utf8.count <= ScopeRequest.maximumLength else { throw fail(.scopeTooLong(scope, limit: ScopeRequest.maximumLength)) }
        if let nonce = value("nonce"), nonce.utf8.count > AuthorizationCode.maximumNonceLength {
            throw fail(.invalidParameter("nonce", "is \(nonce.utf8.count) bytes long; at most \(AuthorizationCode.maximumNonceLength) are accepted"))
        }
        let scopeTenant = authority.specificTenant ?? directory.tenant(forUsername: value("login_hint") ?? "")
            ?? directory.homeTenant(of: client)
        do throws(OAuthError) {
            if let b2c {
                _ = try B2CScopeRequest(scope, client: client, tenant: b2c.tenant, directory: directory)
            } else if let scopeTenant {
                _ = try ScopeRequest(scope, tenant: scopeTenant, directory: directory,
                                     graphResource: Cloud.named(scopeTenant.cloud).graphResource)
            }
        } catch {
            throw fail(error)
        }
        if types.contains(.idToken) {
            guard value("nonce") != nil else { throw fail(.missingParameter("nonce")) }
            guard scope.split(separator: " ").contains("openid") else {
                throw fail(.invalidParameter("scope", "must include openid when response_type includes id_token"))
            }
        }
        self.scope = scope
    }

    /// A `prompt` Entra knows, and not `select_account` with a `login_hint`.
    private mutating func checkPrompt() throws(Failure) {
        if let text = value("prompt") {
            guard let known = Prompt(rawValue: text) else {
                throw fail(.invalidParameter("prompt", "has the unsupported value '\(text)'"))
            }
            prompt = known
        }
        if prompt == .selectAccount, value("login_hint") != nil {
            // Entra: "You can't use both login_hint and prompt=select_account".
            throw fail(.invalidParameter("login_hint", "cannot be used with prompt=select_account"))
        }
    }

    /// `max_age`, when sent, is a whole number of seconds.
    private mutating func checkMaxAge() throws(Failure) {
        guard let text = value("max_age") else { return }
        guard let n = Int(text), n >= 0 else { throw fail(.invalidParameter("max_age", "must be a whole number of seconds")) }
        maxAge = n
    }

    /// PKCE (RFC 7636): a well-formed challenge and a known method; required for SPAs and apps that ask for it.
    private mutating func checkPKCE() throws(Failure) {
        guard let client else { preconditionFailure("the client step runs first") }
        let challenge = value("code_challenge")
        var method = value("code_challenge_method")
        if let m = method, m != "S256", m != "plain" { throw fail(.invalidCodeChallengeMethod(m)) }
        if challenge == nil, method != nil { throw fail(.missingParameter("code_challenge")) }
        if challenge != nil, method == nil { method = "plain" }   // RFC 7636 §4.3
        if let challenge, !(43...128).contains(challenge.utf8.count) || !challenge.utf8.allSatisfy(PKCE.isCharacter) {
            throw fail(.invalidParameter("code_challenge", "must be 43 to 128 characters of [A-Za-z0-9-._~]"))
        }
        if client.type == .spa || client.requirePKCE, challenge == nil, types.contains(.code) { throw fail(.pkceRequired()) }
        codeChallenge = challenge
        codeChallengeMethod = challenge == nil ? nil : method
    }

    /// mockidp's own: the members of `claims` that are not OpenID Connect's are claims for a user made on the fly
    /// (`UsersOnTheFly`); they must be usable. The claims request itself is the token step's to read.
    private mutating func checkSignInClaims() throws(Failure) {
        guard let json = value("claims"), let result = UsersOnTheFly.signInClaims(claimsParameter: json) else { return }
        switch result {
        case .success(let claims): signInClaims = claims
        case .failure(let problem): throw fail(.invalidSignInClaims(problem.description))
        }
    }

    /// The request as the sign-in step sees it.
    private func validated() -> ValidatedAuthorization {
        guard let authority, let client, let redirectURI else { preconditionFailure("every step ran") }
        return ValidatedAuthorization(
            tenant: authority.specificTenant, tenantSegment: request.tenant, client: client, redirectURI: redirectURI,
            responseTypes: types, responseMode: mode, scope: scope, state: values["state"], nonce: value("nonce"),
            prompt: prompt, loginHint: value("login_hint").map(LoginHint.signInName), domainHint: value("domain_hint"), maxAge: maxAge,
            codeChallenge: codeChallenge, codeChallengeMethod: codeChallengeMethod,
            includeClientInfo: value("client_info") == "1", version: request.version,
            resource: request.version == .v1 ? value("resource") : nil, signInClaims: signInClaims)
    }
}
