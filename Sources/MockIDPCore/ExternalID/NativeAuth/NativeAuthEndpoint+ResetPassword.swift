import MockIDPJOSE

/// Self-service password reset (`/resetpassword/v1.0/start` → `challenge` → `continue` → `submit` →
/// `poll_completion` → the token endpoint with `grant_type=continuation_token`).
extension NativeAuthEndpoint {
    /// How long the client waits between polls (the reference's example, `"poll_interval": 2`).
    static let pollInterval = 2

    /// `start`: a user with a password; the client must take codes (`oob`), else the browser.
    func resetPasswordStart(_ call: Call) throws(OAuthError) -> JSONValue {
        let username = try NativeAuthInput.username(call.parameters)
        let challengeTypes = try NativeAuthInput.challengeTypes(call.parameters["challenge_type"])
        guard let user = Self.user(username, in: call.tenant, directory: call.scope.directory) else {
            throw .nativeAuthUserNotFound(username)
        }
        // A tenant whose users sign in with codes has no passwords to reset: the browser decides.
        guard challengeTypes.contains("oob"), call.tenant.externalID?.signIn == .password else { return Self.redirect }
        let flow = NativeAuthFlow(kind: .resetPassword, stage: .started, clientID: call.client.clientID.lowercased(),
                                  tenantID: call.tenant.id, username: username, challengeTypes: challengeTypes,
                                  capabilities: NativeAuthInput.capabilities(call.parameters), userObjectID: user.objectID, expiresAt: 0)
        return ["continuation_token": .string(flows.start(flow, now: call.now))]
    }

    /// `challenge`: a code to the user's address (or resent).
    func resetPasswordChallenge(_ call: Call) throws(OAuthError) -> JSONValue {
        let (token, flow) = try call.flow(self, [.resetPassword]) { $0 == .started || $0 == .codeSent }
        guard try call.challengeTypes(or: flow).contains("oob") else { return Self.redirect }
        let address = Self.address(of: flow, directory: call.scope.directory, tenant: call.tenant)
        return try sendCode(token, flow, to: address, purpose: .passwordReset, stage: .codeSent, now: call.now)
    }

    /// `continue`: the code (`grant_type=oob`).
    func resetPasswordContinue(_ call: Call) throws(OAuthError) -> JSONValue {
        let grantType = try call.parameters.required("grant_type")
        let (token, flow) = try call.flow(self, [.resetPassword]) { $0 == .codeSent }
        guard grantType == "oob" else { throw .nativeAuthGrantNotForStep(grantType) }
        guard NativeAuthInput.codeMatches(call.parameters["oob"], flow, now: call.now) else { throw .invalidOOBValue() }
        var next = flow
        next.code = nil
        next.stage = .codeVerified
        return ["expires_in": .int(NativeAuthFlows.lifetime), "continuation_token": .string(try flows.advance(token, to: next, now: call.now))]
    }

    /// `submit`: the new password, checked against the policy and set; the client then polls.
    func resetPasswordSubmit(_ call: Call) throws(OAuthError) -> JSONValue {
        let (token, flow) = try call.flow(self, [.resetPassword]) { $0 == .codeVerified }
        let password = try call.parameters.required("new_password")
        try NativeAuthInput.checkPassword(password)
        guard let id = flow.userObjectID, let user = call.scope.directory.user(objectID: id, in: call.tenant) else {
            throw .invalidContinuationToken("its user no longer exists")
        }
        if password.isSameSecret(as: user.password) {
            throw .passwordRefused(.passwordRecentlyUsed, "The new password must not be the same as one recently used.")
        }
        if case .failure(let problem) = provider.externalIDUserFlows.resetPassword(email: user.username, newPassword: password,
                                                                                  tenant: call.tenant, directory: call.scope.directory) {
            throw .invalidContinuationToken("the password could not be set: \(problem.message)")
        }
        var next = flow
        next.stage = .submitted(polls: 0)
        return ["continuation_token": .string(try flows.advance(token, to: next, now: call.now)), "poll_interval": .int(Self.pollInterval)]
    }

    /// `poll_completion`: `in_progress` at the first poll (the client polls again with the same token, as MSAL
    /// does), then `succeeded` with the continuation token for the token endpoint.
    func resetPasswordPollCompletion(_ call: Call) throws(OAuthError) -> JSONValue {
        let (token, flow) = try call.flow(self, [.resetPassword]) { if case .submitted = $0 { true } else { false } }
        guard case .submitted(let polls) = flow.stage, polls > 0 else {
            var polled = flow
            polled.stage = .submitted(polls: 1)
            flows.keep(token, polled)
            return ["status": "in_progress", "continuation_token": .string(token)]
        }
        var next = flow
        next.stage = .completed
        return ["status": "succeeded", "continuation_token": .string(try flows.advance(token, to: next, now: call.now))]
    }
}
