import MockIDP
import MockIDPCore
import MockIDPJOSE

/// External ID's native authentication API from a Swift test (docs/external-id.md, "The native authentication
/// API"): sign-in and sign-up driven through the API as MSAL's native-auth SDKs drive it, the codes read from the
/// outbox (`lastCode(sentTo:)`).
extension MockIdentityProvider {
    /// The URL of a native authentication endpoint of `tenant`.
    public func nativeAuthEndpoint(_ call: NativeAuthCall, tenant: String) -> String {
        EndpointTable.url(call.endpoint, baseURL: baseURL, tenant: tenant)
    }

    /// One native authentication call (`client_id` first, as MSAL sends it): the answer's JSON object, or
    /// `TokenRequestError` with the API's error.
    public func nativeAuth(_ call: NativeAuthCall, tenant: String, clientID: String, _ parameters: [(String, String)]) async throws -> JSONObject {
        let reply = try await client.postForm(nativeAuthEndpoint(call, tenant: tenant), [("client_id", clientID)] + parameters)
        guard let json = reply.json.objectValue else {
            throw MockIDPError("\(call.rawValue) answered \(reply.status) without a JSON object: \(reply.text.prefix(200))")
        }
        guard reply.status == 200 else { throw TokenRequestError(status: reply.status, body: json) }
        return json
    }

    /// Signs `username` in through the native authentication API (initiate, challenge, token): with `password`,
    /// or, in a `signIn: otp` tenant, with the code the outbox holds. The tokens are verified against the tenant's
    /// key set.
    public func nativeAuthSignIn(tenant: String, clientID: String, username: String, password: String? = nil,
                                 scopes: [String] = ["openid", "profile", "offline_access"]) async throws -> IssuedTokens {
        let types = "oob password redirect"
        let initiated = try await nativeAuth(.signInInitiate, tenant: tenant, clientID: clientID,
                                             [("username", username), ("challenge_type", types)])
        let challenged = try await nativeAuth(.signInChallenge, tenant: tenant, clientID: clientID,
                                              [("continuation_token", try Self.continuation(initiated)), ("challenge_type", types)])
        let token = try Self.continuation(challenged)
        var parameters = [("client_id", clientID), ("continuation_token", token), ("scope", scopes.joined(separator: " ")), ("client_info", "true")]
        if challenged["challenge_type"]?.stringValue == "oob" {
            parameters += [("grant_type", "oob"), ("oob", try await mailedCode(to: username))]
        } else {
            guard let password else { throw MockIDPError("the tenant signs in with a password, and none was given") }
            parameters += [("grant_type", "password"), ("password", password), ("username", username)]
        }
        return try await self.token(tenant: tenant, parameters: parameters)
    }

    /// Signs `username` up through the native authentication API (start, challenge, the code from the outbox,
    /// `continue`) with `password` (nil in a `signIn: otp` tenant) and `attributes`, then signs the new user in
    /// (`grant_type=continuation_token`).
    public func nativeAuthSignUp(tenant: String, clientID: String, username: String, password: String? = nil,
                                 attributes: [String: String] = [:], scopes: [String] = ["openid", "profile", "offline_access"]) async throws -> IssuedTokens {
        let types = "oob password redirect"
        var start = [("username", username), ("challenge_type", types)]
        if let password { start.append(("password", password)) }
        if !attributes.isEmpty {
            let json = JSONValue.object(JSONObject(attributes.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) }))
            start.append(("attributes", json.jsonString))
        }
        let started = try await nativeAuth(.signUpStart, tenant: tenant, clientID: clientID, start)
        let challenged = try await nativeAuth(.signUpChallenge, tenant: tenant, clientID: clientID,
                                              [("continuation_token", try Self.continuation(started)), ("challenge_type", types)])
        let code = try await mailedCode(to: username)
        let done = try await nativeAuth(.signUpContinue, tenant: tenant, clientID: clientID,
                                        [("continuation_token", try Self.continuation(challenged)), ("grant_type", "oob"), ("oob", code)])
        return try await self.token(tenant: tenant, parameters: [
            ("client_id", clientID), ("grant_type", "continuation_token"), ("continuation_token", try Self.continuation(done)),
            ("username", username), ("scope", scopes.joined(separator: " ")), ("client_info", "true"),
        ])
    }

    private func mailedCode(to address: String) async throws -> String {
        guard let code = try await lastCode(sentTo: address) else { throw MockIDPError("the outbox has no code for \(address)") }
        return code
    }

    static func continuation(_ answer: JSONObject) throws -> String {
        guard let token = answer["continuation_token"]?.stringValue else {
            throw MockIDPError("the answer has no continuation_token (the browser is needed?): \(JSONValue.object(answer).jsonString)")
        }
        return token
    }
}
