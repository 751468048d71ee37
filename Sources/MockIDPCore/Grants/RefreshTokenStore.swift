/// What a refresh token stands for: the user, the client and the scopes it was granted, and when.
struct RefreshGrant: Sendable {
    var tenantID: String
    var clientID: String
    var userObjectID: String
    var username: String
    var scope: String
    var clientAuthentication: ClientAuthenticationMethod
    var issuedAt: Int
    var expiresAt: Int
    /// Issued to a family (foci) app: any family public client of the tenant may redeem it.
    var family: Bool = false
    /// The B2C policy that issued it (nil for Entra refresh tokens, which B2C endpoints do not take, nor the reverse).
    var policy: String? = nil
}

extension RefreshGrant: Expiring {}

/// Refresh tokens issued. Entra's are opaque; ours are random strings looked up here, so they bind to client, user
/// and scopes and die with the process, as a browser's session would.
typealias RefreshTokenStore = ExpiringStore<RefreshGrant>
