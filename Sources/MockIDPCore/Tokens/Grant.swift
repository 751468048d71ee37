/// Everything needed to build the tokens of one successful grant.
struct Grant: Sendable {
    var client: Application
    /// How the client authenticated (`appidacr` / `azpacr`).
    var clientAuthentication: ClientAuthenticationMethod
    var scopes: ScopeRequest?
    /// For client credentials: the API and the roles granted on it.
    var applicationResource: APIResource?
    var applicationResourceIdentifier: String?
    var issuedAt: Int
    var authenticationMethods: [String]
    var nonce: String?
    /// When the user authenticated; set in ID tokens when the request asked with `max_age`.
    var authTime: Int? = nil
    /// When the user signed in, where a sign-in came before the grant (a code, an implicit response): the
    /// `auth_time` and `sid` optional claims (nil: the token request itself signed the user in).
    var signInTime: Int? = nil
    var includeClientInfo: Bool
}
