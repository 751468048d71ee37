/// What a refresh token stands for: the user, the client and the scopes it was granted, and when.
struct RefreshGrant: Sendable {
    var tenantID: String
    var clientID: String
    var userObjectID: String
    var username: String
    var scope: String
    var clientAuthentication: String
    var issuedAt: Int
    var expiresAt: Int
}

/// Refresh tokens issued and not yet expired. Entra's are opaque; ours are random strings looked up here,
/// so they bind to client, user and scopes and die with the process, as a browser's session would.
struct RefreshTokenStore: Sendable {
    private var grants: [String: RefreshGrant] = [:]
    private var order: [String] = []
    /// Oldest tokens are dropped past this many, so a long test run cannot grow memory without bound.
    static let capacity = 200_000

    mutating func insert(_ token: String, _ grant: RefreshGrant, now: Int) {
        if order.count >= Self.capacity {
            let drop = order.count / 4
            for t in order.prefix(drop) { grants[t] = nil }
            order.removeFirst(drop)
            order.removeAll { (grants[$0]?.expiresAt ?? 0) < now }
        }
        grants[token] = grant
        order.append(token)
    }

    func lookup(_ token: String) -> RefreshGrant? { grants[token] }

    mutating func removeAll() {
        grants = [:]
        order = []
    }
}
