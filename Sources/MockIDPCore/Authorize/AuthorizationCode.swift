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
}

/// Codes issued and not yet forgotten. Redeemed codes are kept (marked) until they expire, so a replay is
/// told apart from a forged code (AADSTS54005 rather than 70000).
struct AuthorizationCodeStore: Sendable {
    private var codes: [String: AuthorizationCode] = [:]
    /// Oldest codes are forgotten past this many.
    static let capacity = 100_000

    mutating func insert(_ code: String, _ record: AuthorizationCode, now: Int) {
        if codes.count >= Self.capacity { codes = codes.filter { $0.value.expiresAt > now } }
        if codes.count >= Self.capacity { codes.removeAll() }
        codes[code] = record
    }

    func lookup(_ code: String) -> AuthorizationCode? { codes[code] }

    /// Marks the code redeemed; false when it already was (a concurrent or repeated redemption).
    mutating func markRedeemed(_ code: String) -> Bool {
        guard let record = codes[code], !record.redeemed else { return false }
        codes[code]?.redeemed = true
        return true
    }

    mutating func removeAll() { codes = [:] }
}
