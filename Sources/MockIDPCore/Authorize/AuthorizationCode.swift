/// What an authorization code stands for, until it is redeemed once or expires.
struct AuthorizationCode: Sendable {
    var clientID: String
    var redirectURI: String
    var tenantID: String
    var userObjectID: String
    var username: String
    var scope: String
    var nonce: String?
    var codeChallenge: String?
    var codeChallengeMethod: String?
    var authTime: Int
    var maxAgeRequested: Bool
    var expiresAt: Int
    var redeemed = false
    /// The B2C policy that issued the code (nil for Entra codes); B2C codes are redeemed at that policy only.
    var policy: String? = nil
    /// The code ends a sign-up: its tokens say `newUser: true`.
    var newUser = false
    /// The v1 `resource` the code was issued for, exactly as sent (nil for v2 codes).
    var resource: String? = nil
}

extension AuthorizationCode: Expiring {
    /// The longest `nonce` a code keeps (OpenID Connect sets none; nonces are a few dozen characters): an authorize
    /// request with a longer one is refused before a code is issued.
    static let maximumNonceLength = 2048

    /// The client's text the code keeps until it expires: redirect URI, scopes (and a v1 `resource`), nonce, PKCE
    /// challenge, and the user's name.
    var keptBytes: Int {
        redirectURI.utf8.count + scope.utf8.count + (resource?.utf8.count ?? 0) + (nonce?.utf8.count ?? 0)
            + (codeChallenge?.utf8.count ?? 0) + username.utf8.count
    }

    /// 32 MiB: at the scope and nonce limits (`ScopeRequest.maximumLength`, `maximumNonceLength`), some 3,000 codes;
    /// codes of ordinary sizes reach the store's count bound first.
    static var keptBytesCapacity: Int { 32 << 20 }

    /// The code once redeemed: only what tells a replay apart (the grant paths read the policy, tenant and client,
    /// then refuse it as redeemed) is kept until it expires, not the user, scopes, nonce and PKCE challenge.
    var spent: AuthorizationCode {
        AuthorizationCode(clientID: clientID, redirectURI: "", tenantID: tenantID, userObjectID: "", username: "", scope: "",
                          nonce: nil, codeChallenge: nil, codeChallengeMethod: nil, authTime: 0, maxAgeRequested: false,
                          expiresAt: expiresAt, redeemed: true, policy: policy)
    }
}

/// Codes issued. Redeemed codes are kept (marked) until they expire, so a replay is told apart from a forged code
/// (AADSTS54005 rather than 70000).
typealias AuthorizationCodeStore = ExpiringStore<AuthorizationCode>

extension ExpiringStore where Value == AuthorizationCode {
    /// Marks the code redeemed; false when it already was (a concurrent or repeated redemption).
    mutating func markRedeemed(_ code: String) -> Bool {
        guard let record = self[code], !record.redeemed else { return false }
        self[code] = record.spent
        return true
    }
}
