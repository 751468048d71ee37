import MockIDPJOSE

/// Sign-in (`/oauth2/v2.0/initiate` → `/oauth2/v2.0/challenge` → the token endpoint), with email one-time-passcode
/// MFA for users with `requireMfa` (`/oauth2/v2.0/introspect`, `challenge` with the method's `id`, `grant_type=mfa_oob`).
extension NativeAuthEndpoint {
    /// The id of the one strong authentication method a user has here: email one-time passcodes to their address.
    static let emailMethodID = "email"

    /// `initiate`: the user must exist; the client must be able to do the tenant's method (`password`, or `oob`
    /// for `signIn: otp`), else the browser.
    func signInInitiate(_ call: Call) throws(OAuthError) -> JSONValue {
        let username = try NativeAuthInput.username(call.parameters)
        let challengeTypes = try NativeAuthInput.challengeTypes(call.parameters["challenge_type"])
        guard let user = Self.user(username, in: call.tenant, directory: call.scope.directory) else {
            throw .nativeAuthUserNotFound(username)
        }
        guard challengeTypes.contains(Self.firstFactor(call.tenant)) else { return Self.redirect }
        let flow = NativeAuthFlow(kind: .signIn, stage: .initiated, clientID: call.client.clientID.lowercased(), tenantID: call.tenant.id,
                                  username: username, challengeTypes: challengeTypes,
                                  capabilities: NativeAuthInput.capabilities(call.parameters), userObjectID: user.objectID, expiresAt: 0)
        return ["continuation_token": .string(flows.start(flow, now: call.now))]
    }

    /// The challenge type of the tenant's first factor.
    static func firstFactor(_ tenant: Tenant) -> String {
        tenant.externalID?.signIn == .otp ? "oob" : "password"
    }

    /// `challenge`: the first factor (the password, or a code mailed), a code resent, or the second factor's code.
    func signInChallenge(_ call: Call) throws(OAuthError) -> JSONValue {
        var (token, flow) = try call.flow(self, [.signIn]) { stage in
            [.initiated, .passwordRequested, .codeSent, .mfaRequired, .mfaIntrospected, .mfaCodeSent].contains(stage)
        }
        // MSAL sends its list at every step; the latest says what the client can do next (the token endpoint's MFA).
        let challengeTypes = try call.challengeTypes(or: flow)
        flow.challengeTypes = challengeTypes
        let address = Self.address(of: flow, directory: call.scope.directory, tenant: call.tenant)
        switch flow.stage {
        case .mfaRequired, .mfaIntrospected, .mfaCodeSent:
            if let id = call.parameters["id"], id != Self.emailMethodID {
                throw .nativeAuthInvalidParameter("id", "'\(id)' is not one of the user's methods (introspect lists them)")
            }
            guard challengeTypes.contains("oob") else { return Self.redirect }
            return try sendCode(token, flow, to: address, purpose: .mfa, stage: .mfaCodeSent, now: call.now)
        default:
            guard challengeTypes.contains(Self.firstFactor(call.tenant)) else { return Self.redirect }
            if Self.firstFactor(call.tenant) == "oob" {
                return try sendCode(token, flow, to: address, purpose: .signIn, stage: .codeSent, now: call.now)
            }
            var next = flow
            next.stage = .passwordRequested
            return ["continuation_token": .string(try flows.advance(token, to: next, now: call.now)), "challenge_type": "password"]
        }
    }

    /// `introspect`: the user's strong authentication methods, after `mfa_required`.
    func signInIntrospect(_ call: Call) throws(OAuthError) -> JSONValue {
        let (token, flow) = try call.flow(self, [.signIn]) { $0 == .mfaRequired || $0 == .mfaIntrospected }
        var next = flow
        next.stage = .mfaIntrospected
        let address = Self.address(of: flow, directory: call.scope.directory, tenant: call.tenant)
        let method: JSONValue = ["id": .string(Self.emailMethodID), "challenge_type": "oob", "challenge_channel": "email",
                                 "login_hint": .string(NativeAuthInput.masked(address))]
        return ["continuation_token": .string(try flows.advance(token, to: next, now: call.now)), "methods": [method]]
    }

    /// Where codes for the flow's user go: their email address, else the name they signed in with.
    static func address(of flow: NativeAuthFlow, directory: Directory, tenant: Tenant) -> String {
        flow.userObjectID.flatMap { directory.user(objectID: $0, in: tenant) }?.email ?? flow.username
    }

    // The token endpoint's steps.

    /// `grant_type=password` with a `continuation_token` (`ExternalIDPasswordGrant`).
    func passwordGrant(_ call: TokenCall, continuationToken token: String) throws(OAuthError) -> TokenResponse {
        let (request, flow, user) = try tokenStep(call, token: token, kinds: [.signIn]) { $0 == .passwordRequested }
        let password = try call.parameters.required("password")
        guard password.isSameSecret(as: user.password) else { throw .invalidPassword() }
        return try signedIn(call, request, token: token, flow: flow, user: user, methods: ["pwd"])
    }

    /// `grant_type=oob` (sign-in with a mailed code, `signIn: otp`) or `grant_type=mfa_oob` (the second factor's code).
    func codeGrant(_ call: TokenCall, secondFactor: Bool) throws(OAuthError) -> TokenResponse {
        let token = try call.parameters.required("continuation_token")
        let stage: NativeAuthFlow.Stage = secondFactor ? .mfaCodeSent : .codeSent
        let (request, flow, user) = try tokenStep(call, token: token, kinds: [.signIn]) { $0 == stage }
        guard NativeAuthInput.codeMatches(call.parameters["oob"], flow, now: request.now) else { throw .invalidOOBValue() }
        guard secondFactor else { return try signedIn(call, request, token: token, flow: flow, user: user, methods: ["otp"]) }
        try flows.finish(token)
        return try tokens(call, request, user: user, methods: ["pwd", "mfa"])
    }

    /// `grant_type=continuation_token`: signed in after sign-up or a password reset.
    func continuationTokenGrant(_ call: TokenCall) throws(OAuthError) -> TokenResponse {
        let token = try call.parameters.required("continuation_token")
        let (request, flow, user) = try tokenStep(call, token: token, kinds: [.signUp, .resetPassword]) { $0 == .completed }
        if let username = call.parameters["username"], username.lowercased() != flow.username.lowercased() {
            throw .invalidContinuationToken("it was issued for another user")
        }
        return try signedIn(call, request, token: token, flow: flow, user: user, methods: flow.kind == .signUp ? ["otp"] : ["pwd"])
    }

    /// A token-endpoint step: the checked request, the flow `token` stands for at a stage `accepts` takes, and its user.
    private func tokenStep(_ call: TokenCall, token: String, kinds: Set<NativeAuthFlow.Kind>,
                           accepts: (NativeAuthFlow.Stage) -> Bool) throws(OAuthError) -> (Call, NativeAuthFlow, User) {
        let request = try tokenCall(call)
        let flow = try flows.flow(token, kinds: kinds, clientID: request.client.clientID, tenantID: request.tenant.id, now: request.now,
                                  accepts: accepts)
        return (request, flow, try Self.flowUser(flow, call: call, tenant: request.tenant))
    }

    /// The checked client and tenant of a token request at an External ID tenant.
    func tokenCall(_ call: TokenCall) throws(OAuthError) -> Call {
        let tenant = try Self.tenant(call.request.tenant, scope: call.scope)
        let client = try Self.client(call.parameters["client_id"], tenant: tenant, directory: call.directory)
        return Call(parameters: call.parameters, tenant: tenant, client: client, scope: call.scope, now: provider.clock.now())
    }

    /// The user the flow signs in, as the directory has them now.
    static func flowUser(_ flow: NativeAuthFlow, call: TokenCall, tenant: Tenant) throws(OAuthError) -> User {
        guard let id = flow.userObjectID, let user = call.directory.user(objectID: id, in: tenant) else {
            throw .invalidContinuationToken("its user no longer exists")
        }
        return user
    }

    /// The first factor passed: tokens, or, for a user with `requireMfa`, `mfa_required` (a client with the
    /// `mfa_required` capability and `oob`) or the browser (any other client; the reference's `redirect_reason`).
    func signedIn(_ call: TokenCall, _ request: Call, token: String, flow: NativeAuthFlow, user: User,
                  methods: [String]) throws(OAuthError) -> TokenResponse {
        guard user.requireMFA else {
            try flows.finish(token)
            return try tokens(call, request, user: user, methods: methods)
        }
        // The capability is named as the suberror it lets the client receive.
        guard flow.capabilities.contains(OAuthError.Suberror.mfaRequired.rawValue), flow.challengeTypes.contains("oob") else {
            try flows.finish(token)
            return TokenResponse(body: ["challenge_type": "redirect", "redirect_reason": "Client is missing mfa_required capability"])
        }
        var next = flow
        next.kind = .signIn
        next.stage = .mfaRequired
        next.code = nil
        throw .nativeAuthMFARequired(continuationToken: try flows.advance(token, to: next, now: request.now))
    }

    /// The tokens of a browser sign-in's code redemption: ID, access and refresh token, and `client_info`.
    func tokens(_ call: TokenCall, _ request: Call, user: User, methods: [String]) throws(OAuthError) -> TokenResponse {
        let scopes = try call.userScopes(stored: "openid profile offline_access", tenant: request.tenant)
        try provider.consentPolicy.checkUserConsent(client: request.client, user: user, tenant: request.tenant, scopes: scopes, scope: call.scope)
        let clientInfo = call.parameters["client_info"]
        let grant = Grant(client: request.client, clientAuthentication: .none, scopes: scopes, applicationResource: nil,
                          applicationResourceIdentifier: nil, issuedAt: request.now, authenticationMethods: methods, nonce: nil,
                          includeClientInfo: clientInfo == "1" || clientInfo == "true")
        return try call.userTokenResponse(grant, user: user, tenant: request.tenant)
    }
}
