import MockIDPJOSE

/// External ID's native authentication API (Microsoft Learn, "Native authentication API reference"): the state
/// machine of sign-in, sign-up, password reset and MFA over `NativeAuthFlows`, answering each call with the
/// reference's JSON or its error. The token endpoint's steps (`grant_type` `password`, `oob`, `mfa_oob`,
/// `continuation_token`) come here from their grants (`ExternalIDPasswordGrant`, `NativeAuthGrant`).
package struct NativeAuthEndpoint {
    let provider: IdentityProvider

    var flows: NativeAuthFlows { provider.nativeAuthFlows }

    /// One checked request: its parameters, the External ID tenant, the native-auth client, the scope and the time.
    struct Call {
        let parameters: TokenParameters
        let tenant: Tenant
        let client: Application
        let scope: RequestScope
        let now: Int

        /// The flow the request's `continuation_token` stands for, when it is of one of `kinds` at a stage `accepts` takes.
        func flow(_ endpoint: NativeAuthEndpoint, _ kinds: Set<NativeAuthFlow.Kind>,
                  accepts: (NativeAuthFlow.Stage) -> Bool) throws(OAuthError) -> (token: String, flow: NativeAuthFlow) {
            let token = try parameters.required("continuation_token")
            let flow = try endpoint.flows.flow(token, kinds: kinds, clientID: client.clientID, tenantID: tenant.id, now: now, accepts: accepts)
            return (token, flow)
        }

        /// The client's `challenge_type` list where this call may carry one (sign-in's and sign-up's `challenge`;
        /// MSAL always sends it): else the list the flow started with.
        func challengeTypes(or flow: NativeAuthFlow) throws(OAuthError) -> Set<String> {
            guard parameters["challenge_type"] != nil else { return flow.challengeTypes }
            return try NativeAuthInput.challengeTypes(parameters["challenge_type"])
        }
    }

    /// The answer to `call` for the tenant `segment` names: the reference's JSON, or its error.
    package func answer(_ call: NativeAuthCall, tenant segment: String, parameters: [(name: String, value: String)],
                        scope: RequestScope) -> Result<JSONValue, OAuthError> {
        do throws(OAuthError) {
            let parameters = try TokenParameters(TokenRequest(tenant: segment, parameters: parameters))
            let tenant = try Self.tenant(segment, scope: scope)
            let client = try Self.client(parameters["client_id"], tenant: tenant, directory: scope.directory)
            let request = Call(parameters: parameters, tenant: tenant, client: client, scope: scope, now: provider.clock.now())
            return .success(try answer(call, request))
        } catch {
            return .failure(error)
        }
    }

    private func answer(_ call: NativeAuthCall, _ request: Call) throws(OAuthError) -> JSONValue {
        switch call {
        case .signInInitiate: try signInInitiate(request)
        case .signInChallenge: try signInChallenge(request)
        case .signInIntrospect: try signInIntrospect(request)
        case .signUpStart: try signUpStart(request)
        case .signUpChallenge: try signUpChallenge(request)
        case .signUpContinue: try signUpContinue(request)
        case .resetPasswordStart: try resetPasswordStart(request)
        case .resetPasswordChallenge: try resetPasswordChallenge(request)
        case .resetPasswordContinue: try resetPasswordContinue(request)
        case .resetPasswordSubmit: try resetPasswordSubmit(request)
        case .resetPasswordPollCompletion: try resetPasswordPollCompletion(request)
        case .registerIntrospect, .registerChallenge, .registerContinue: try register(call, request)
        }
    }

    /// The External ID tenant of the request: its dialect's, or the refusal of a tenant that is unknown or not an
    /// External ID tenant.
    static func tenant(_ segment: String, scope: RequestScope) throws(OAuthError) -> Tenant {
        if case .externalID(let tenant) = scope.dialect { return tenant }
        guard scope.directory.tenant(segment) != nil else { throw .tenantNotFound(segment, forDiscovery: false) }
        throw .nativeAuthDisabled(clientID: "", why: "tenant '\(segment)' is not an External ID tenant: the native authentication API is External ID's")
    }

    /// The app `clientID` names, when it may use the API: a registered public client with `nativeAuth: true`
    /// (Microsoft Learn, "Native authentication API reference": `unauthorized_client` for an unknown client,
    /// `invalid_client` with `nativeauthapi_disabled` for one not enabled).
    static func client(_ clientID: String?, tenant: Tenant, directory: Directory) throws(OAuthError) -> Application {
        guard let clientID else { throw .nativeAuthInvalidParameter("client_id", "it is missing") }
        guard GUID.isValid(clientID) else { throw .nativeAuthInvalidParameter("client_id", "'\(clientID)' is not a GUID") }
        guard let client = directory.app(clientID, in: tenant) else { throw .unknownClient(clientID, tenant: tenant.id) }
        guard client.nativeAuth else {
            throw .nativeAuthDisabled(clientID: client.clientID, why: "the app '\(client.clientID)' does not have nativeAuth: true")
        }
        guard !client.isConfidential else {
            throw .nativeAuthDisabled(clientID: client.clientID, why: "the app '\(client.clientID)' is not a public client")
        }
        return client
    }

    /// The user of `tenant` who signs in as `name`: by user name, else by email address (External ID users sign in
    /// with their email address, of any domain).
    static func user(_ name: String, in tenant: Tenant, directory: Directory) -> User? {
        if let user = directory.user(name, in: tenant) { return user }
        let key = name.lowercased()
        return tenant.users.first { $0.email?.lowercased() == key }
    }

    /// The reference's fallback: the client cannot do what the step needs, and must use the browser.
    static var redirect: JSONValue { ["challenge_type": "redirect"] }

    /// Mails a new code for `flow` (kept in it, valid as long as a continuation token) and answers as the
    /// reference's `oob` challenge does, under a new continuation token for `stage`.
    func sendCode(_ token: String, _ flow: NativeAuthFlow, to address: String, purpose: Outbox.Purpose, stage: NativeAuthFlow.Stage,
                  now: Int) throws(OAuthError) -> JSONValue {
        var next = flow
        let code = EmailVerifications.code(provider.random)
        next.code = (code, now + NativeAuthFlows.lifetime)
        next.stage = stage
        let nextToken = try flows.advance(token, to: next, now: now)
        provider.outbox.send(Outbox.Message(to: address, code: code, purpose: purpose, sentAt: now))
        return ["continuation_token": .string(nextToken), "challenge_type": "oob", "binding_method": "prompt",
                "challenge_channel": "email", "challenge_target_label": .string(NativeAuthInput.masked(address)),
                "code_length": .int(NativeAuthInput.codeLength), "interval": 300]
    }

    /// `{"continuation_token"}` for `next`, spending `token`.
    func continuation(_ token: String, _ next: NativeAuthFlow, now: Int) throws(OAuthError) -> JSONValue {
        ["continuation_token": .string(try flows.advance(token, to: next, now: now))]
    }
}
