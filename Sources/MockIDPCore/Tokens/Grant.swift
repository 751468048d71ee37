/// Everything needed to build the tokens of one successful grant.
struct Grant: Sendable {
    var client: Application
    /// `0` public client, `1` secret, `2` certificate (`appidacr` / `azpacr`).
    var clientAuthentication: String
    var scopes: ScopeRequest?
    /// For client credentials: the API and the roles granted on it.
    var applicationResource: APIResource?
    var applicationResourceIdentifier: String?
    var issuedAt: Int
    var authenticationMethods: [String]
    var nonce: String?
    /// When the user authenticated; set in ID tokens when the request asked with `max_age`.
    var authTime: Int? = nil
    var includeClientInfo: Bool
}
