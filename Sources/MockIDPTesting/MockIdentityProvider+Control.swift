import MockIDP
import MockIDPJOSE

/// Swift wrappers over the control API (`/_mockidp/…`, docs/control-api.md): real HTTP requests to the server,
/// with the admin token when the provider was started with one. Each returns the server's JSON answer and
/// throws `ControlAPIError` for any status but the expected one.
extension MockIdentityProvider {
    /// Adds or replaces a user of `tenant` (GUID or domain): `POST /_mockidp/tenants/{tenant}/users` → 201.
    @discardableResult
    public func addUser(_ user: MockUser, tenant: String) async throws -> JSONValue {
        try await control(.addUser, tenant: tenant, body: user.json, expect: 201)
    }

    /// Adds or replaces an app of `tenant`: `POST /_mockidp/tenants/{tenant}/apps` → 201.
    @discardableResult
    public func addApp(_ app: MockApp, tenant: String) async throws -> JSONValue {
        try await control(.addApp, tenant: tenant, body: app.json, expect: 201)
    }

    /// Adds or replaces a managed identity of `tenant`: `POST /_mockidp/tenants/{tenant}/managedIdentities` → 201.
    @discardableResult
    public func addManagedIdentity(_ identity: MockManagedIdentity, tenant: String) async throws -> JSONValue {
        try await control(.addManagedIdentity, tenant: tenant, body: identity.json, expect: 201)
    }

    /// Adds or replaces a directory group of `tenant`: `POST /_mockidp/tenants/{tenant}/groups` → 201.
    @discardableResult
    public func addGroup(_ group: MockGroup, tenant: String) async throws -> JSONValue {
        try await control(.addGroup, tenant: tenant, body: group.json, expect: 201)
    }

    /// Adds `claims` to the next `count` tokens issued to `clientID` and/or `username` (any, when nil):
    /// `POST /_mockidp/claims`.
    @discardableResult
    public func extraClaims(_ claims: JSONObject, clientID: String? = nil, username: String? = nil, count: Int = 1)
        async throws -> JSONValue {
        var body: JSONObject = ["claims": .object(claims), "count": .int(count)]
        body.set("clientId", clientID)
        body.set("username", username)
        return try await control(.addClaims, body: .object(body))
    }

    /// Makes the next matching requests fail (or wait): `POST /_mockidp/faults`.
    @discardableResult
    public func injectFault(_ fault: MockFault) async throws -> JSONValue {
        try await control(.addFault, body: fault.json)
    }

    /// The faults still waiting to match: `GET /_mockidp/faults` (`{"faults": [...]}`).
    public func pendingFaults() async throws -> [JSONValue] {
        let answer = try await control(.listFaults, body: nil, expect: 200)
        return answer["faults"]?.arrayValue ?? []
    }

    /// A new signing key signs from now on; the old one stays in the key set: `POST /_mockidp/keys/rotate`.
    @discardableResult
    public func rotateKeys() async throws -> JSONValue { try await control(.rotateKeys, body: [:]) }

    /// Keys that no longer sign leave the key set: `POST /_mockidp/keys/retire`.
    @discardableResult
    public func retireKeys() async throws -> JSONValue { try await control(.retireKeys, body: [:]) }

    /// A new certificate signs the SAML app's Responses and metadata from now on, the old one published until
    /// `retireKeys()`: `POST /_mockidp/tenants/{tenant}/apps/{clientId}/saml/rotate` (docs/saml.md, "Federation metadata").
    @discardableResult
    public func rotateSAMLCertificate(tenant: String, clientID: String) async throws -> JSONValue {
        try await control(.rotateSAMLCertificate, tenant: tenant, clientID: clientID, body: [:])
    }

    /// Moves the server's clock forward by `seconds` (token, code and device-code expiry): `POST /_mockidp/clock`.
    @discardableResult
    public func advanceClock(seconds: Int) async throws -> JSONValue {
        try await control(.clock, body: ["advance": .int(seconds)])
    }

    /// The recent requests, newest last, each with the reason it was rejected: `GET /_mockidp/requests`.
    public func requests() async throws -> [RecordedRequest] {
        let answer = try await control(.requests, body: nil, expect: 200)
        guard let entries = answer["requests"]?.arrayValue else {
            throw ControlAPIError(call: "GET /_mockidp/requests", status: 200, body: "no \"requests\" array: \(answer.jsonString)")
        }
        return entries.compactMap(RecordedRequest.init(json:))
    }

    /// Back to the loaded configuration (users, apps, sessions, codes, faults, clock): `POST /_mockidp/reset`.
    @discardableResult
    public func reset() async throws -> JSONValue { try await control(.reset, body: [:]) }

    /// One control call; `expect` nil accepts any 2xx.
    func control(_ which: ControlCall, tenant: String = "", clientID: String = "", body: JSONValue?, expect: Int? = nil) async throws -> JSONValue {
        let method = which.method, path = which.path(tenant: tenant, clientID: clientID)
        let call = "\(method) \(path)"
        var headers: [String: String] = ["Accept": "application/json"]
        if body != nil { headers["Content-Type"] = "application/json" }
        if let token = server.options.adminToken { headers["Authorization"] = "Bearer \(token)" }
        let reply = try await client.execute(method, path, headers: headers, body: body?.serialized())
        let accepted = expect.map { reply.status == $0 } ?? (200..<300).contains(reply.status)
        guard accepted else { throw ControlAPIError(call: call, status: reply.status, body: reply.text) }
        return reply.json
    }
}
