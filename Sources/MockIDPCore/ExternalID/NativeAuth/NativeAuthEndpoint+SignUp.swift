import MockIDPJOSE

/// Sign-up (`/signup/v1.0/start` → `challenge` → `continue` with `oob`, `password`, `attributes` → the token endpoint
/// with `grant_type=continuation_token`). The new user joins the directory as the sign-up pages make one
/// (`ExternalIDUserFlows.signUp`): a fresh object ID, their email address as user name, and the tenant's attributes.
extension NativeAuthEndpoint {
    /// What sign-up in `tenant` asks the client to do: `oob` (the email address is proven with a code), and
    /// `password` unless the tenant signs in with codes.
    static func signUpNeeds(_ tenant: Tenant) -> Set<String> {
        tenant.externalID?.signIn == .otp ? ["oob"] : ["oob", "password"]
    }

    /// `start`: a new email address; the password and attributes may come now or later.
    func signUpStart(_ call: Call) throws(OAuthError) -> JSONValue {
        let username = try NativeAuthInput.username(call.parameters)
        let challengeTypes = try NativeAuthInput.challengeTypes(call.parameters["challenge_type"])
        guard let settings = call.tenant.externalID, settings.signUp else { throw .signUpNotAllowed(tenant: call.tenant.displayName) }
        guard Self.user(username, in: call.tenant, directory: call.scope.directory) == nil else { throw .userAlreadyExists(username) }
        let password = settings.signIn == .password ? call.parameters["password"] : nil
        if let password { try NativeAuthInput.checkPassword(password) }
        let attributes = try NativeAuthInput.attributes(call.parameters["attributes"], collected: settings.attributes)
        guard Self.signUpNeeds(call.tenant).isSubset(of: challengeTypes) else { return Self.redirect }
        let flow = NativeAuthFlow(kind: .signUp, stage: .started, clientID: call.client.clientID.lowercased(), tenantID: call.tenant.id,
                                  username: username, challengeTypes: challengeTypes,
                                  capabilities: NativeAuthInput.capabilities(call.parameters), password: password,
                                  attributes: attributes, expiresAt: 0)
        return ["continuation_token": .string(flows.start(flow, now: call.now))]
    }

    /// `challenge`: a code to the new address (or resent), or, after `credential_required`, the password.
    func signUpChallenge(_ call: Call) throws(OAuthError) -> JSONValue {
        let (token, flow) = try call.flow(self, [.signUp]) { [.started, .codeSent, .credentialRequired].contains($0) }
        let challengeTypes = try call.challengeTypes(or: flow)
        if flow.stage == .credentialRequired {
            guard challengeTypes.contains("password") else { return Self.redirect }
            return ["challenge_type": "password", "continuation_token": .string(try flows.advance(token, to: flow, now: call.now))]
        }
        guard challengeTypes.contains("oob") else { return Self.redirect }
        return try sendCode(token, flow, to: flow.username, purpose: .signUp, stage: .codeSent, now: call.now)
    }

    /// `continue`: the code (`oob`), the password (`password`, after `credential_required`) or the attributes
    /// (`attributes`, after `attributes_required`); then what is still missing, or the new user.
    func signUpContinue(_ call: Call) throws(OAuthError) -> JSONValue {
        let grantType = try call.parameters.required("grant_type")
        let (token, flow) = try call.flow(self, [.signUp]) { [.codeSent, .credentialRequired, .attributesRequired].contains($0) }
        var next = flow
        switch (grantType, flow.stage) {
        case ("oob", .codeSent):
            guard NativeAuthInput.codeMatches(call.parameters["oob"], flow, now: call.now) else { throw .invalidOOBValue() }
            next.code = nil
            next.emailVerified = true
        case ("password", .credentialRequired):
            let password = try call.parameters.required("password")
            try NativeAuthInput.checkPassword(password)
            next.password = password
        case ("attributes", .attributesRequired):
            let collected = call.tenant.externalID?.attributes ?? []
            let values = try NativeAuthInput.attributes(try call.parameters.required("attributes"), collected: collected)
            next.attributes.merge(values) { _, new in new }
        case ("oob", _), ("password", _), ("attributes", _):
            throw .invalidContinuationToken("it is for another step of the flow than grant_type=\(grantType)")
        default:
            throw .nativeAuthGrantNotForStep(grantType)
        }
        return try signUpNextStep(call, token: token, next)
    }

    /// What sign-up asks for next (`credential_required`, `attributes_required`), or the new user and the
    /// continuation token for the token endpoint.
    private func signUpNextStep(_ call: Call, token: String, _ flow: NativeAuthFlow) throws(OAuthError) -> JSONValue {
        var next = flow
        if call.tenant.externalID?.signIn == .password, flow.password == nil {
            next.stage = .credentialRequired
            throw .credentialRequired(continuationToken: try flows.advance(token, to: next, now: call.now))
        }
        let collected = call.tenant.externalID?.attributes ?? []
        let missing = collected.filter { flow.attributes[$0] == nil }.compactMap(SignUpAttribute.init)
        if !missing.isEmpty {
            next.stage = .attributesRequired
            throw .attributesRequired(missing, continuationToken: try flows.advance(token, to: next, now: call.now))
        }
        // The sign-up pages' way of making a customer (a fresh object ID, the attributes as Graph properties).
        let user: User
        switch provider.externalIDUserFlows.signUp(email: flow.username, password: flow.password, attributes: flow.attributes,
                                                   tenant: call.tenant, directory: call.scope.directory) {
        case .success(let made): user = made
        case .failure(let problem):
            // Checked at each step already: what is left is a race with another sign-up of the same address.
            if Self.user(flow.username, in: call.tenant, directory: call.scope.directory) != nil { throw .userAlreadyExists(flow.username) }
            throw .invalidContinuationToken("sign-up failed: \(problem.message)")
        }
        next.stage = .completed
        next.userObjectID = user.objectID
        next.password = nil
        return try continuation(token, next, now: call.now)
    }
}
