import MockIDPJOSE

/// Claims added to the next matching token responses, registered through `POST /_mockidp/claims`. They are merged
/// last into the access and ID tokens of a response, so they may also replace standard claims.
package struct ExtraClaims: Sendable, Equatable {
    /// Assigned when registered.
    package var id: Int = 0
    /// Only tokens for this client.
    package var clientID: String?
    /// Only tokens for this user (compared without regard to case); app-only tokens never match a username.
    package var username: String?
    /// The claims to add.
    package var claims: JSONObject
    /// How many token responses still get them; nil: every matching response until `reset`.
    package var remaining: Int?

    /// Claims for the next matching token responses.
    package init(clientID: String? = nil, username: String? = nil, claims: JSONObject, remaining: Int? = 1) {
        self.clientID = clientID
        self.username = username
        self.claims = claims
        self.remaining = remaining
    }

    func matches(clientID: String, username: String?) -> Bool {
        if let want = self.clientID, want.lowercased() != clientID.lowercased() { return false }
        if let want = self.username, want.lowercased() != username?.lowercased() { return false }
        return true
    }
}
