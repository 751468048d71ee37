import MockIDP
import MockIDPJOSE

/// The control API's consents (docs/control-api.md, "Control API"): what users of apps with `consentRequired` have
/// consented to, as the consent page records it.
extension MockIdentityProvider {
    /// `username` consents to the delegated permissions `scope` asks `clientID` for (space-separated, as a request's
    /// `scope`), as accepting the consent page would: `POST /_mockidp/consents` → 201. `tenant` (GUID or domain)
    /// defaults to the tenant of the username's domain. Returns `{"consents": [...]}`, the user's grants for the app.
    @discardableResult
    public func grantConsent(username: String, clientID: String, scope: String, tenant: String? = nil) async throws -> JSONValue {
        var body: JSONObject = ["username": .string(username), "clientId": .string(clientID), "scope": .string(scope)]
        body.set("tenant", tenant)
        return try await control(.grantConsent, body: .object(body), expect: 201)
    }

    /// Every consent given, one entry per user, app and API (`username`, `clientId`, `resourceId`, `scope`):
    /// `GET /_mockidp/consents`.
    public func consents() async throws -> [JSONValue] {
        try await control(.listConsents, body: nil, expect: 200)["consents"]?.arrayValue ?? []
    }

    /// Revokes the consents of `username` and/or for `clientID` (all when both are nil): `DELETE /_mockidp/consents`.
    /// Returns how many grants went.
    @discardableResult
    public func revokeConsents(username: String? = nil, clientID: String? = nil) async throws -> Int {
        var body: JSONObject = [:]
        body.set("username", username)
        body.set("clientId", clientID)
        return try await control(.revokeConsents, body: .object(body), expect: 200)["revoked"]?.intValue ?? 0
    }
}
