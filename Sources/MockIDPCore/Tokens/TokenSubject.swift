/// Who a token speaks for: a signed-in user, or an app acting as itself.
enum TokenSubject: Sendable {
    case user(User, tenant: Tenant)
    case application(Application, tenant: Tenant)

    var tenant: Tenant {
        switch self {
        case .user(_, let t), .application(_, let t): t
        }
    }
}

/// Everything needed to build the tokens of one successful grant.
struct Grant: Sendable {
    var subject: TokenSubject
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
    var includeClientInfo: Bool
}
