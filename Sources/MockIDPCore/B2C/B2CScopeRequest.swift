/// The `scope` of a B2C request: OpenID Connect scopes, and either the app's own client ID (an access token for
/// the app itself) or scopes of one API registered in the tenant (B2C docs "Request an access token").
struct B2CScopeRequest: Sendable {
    /// The scopes exactly as the client wrote them (echoed in the response).
    let requested: [String]
    let openIDScopes: Set<String>
    /// The app the access token is for; nil when only OpenID Connect scopes were asked for (then B2C issues no
    /// access token).
    let audience: Application?
    /// Scope names on that API (`scp`), empty for the client-ID scope.
    let apiScopes: [String]

    var wantsIDToken: Bool { openIDScopes.contains("openid") }
    var wantsRefreshToken: Bool { openIDScopes.contains("offline_access") }

    init(_ scopeParameter: String, client: Application, tenant: Tenant, directory: Directory) throws(OAuthError) {
        let scopes = ScopeRequest.words(scopeParameter)
        requested = scopes
        var oidc = Set<String>()
        var audience: Application?
        var names: [String] = []
        for scope in scopes {
            if ScopeRequest.openIDScopeNames.contains(scope) { oidc.insert(scope); continue }
            let found: Application
            if scope.lowercased() == client.clientID {
                found = client
            } else if let slash = scope.lastIndex(of: "/") {
                let prefix = String(scope[..<slash]), name = String(scope[scope.index(after: slash)...])
                guard let api = directory.api(prefix, in: tenant), !name.isEmpty, api.scopes.contains(name) else {
                    throw .invalidScope(scope)
                }
                found = api
                names.append(name)
            } else {
                throw .b2cScopeNeedsResource(scope)
            }
            if let audience, audience.clientID != found.clientID { throw .multipleResources() }
            audience = found
        }
        openIDScopes = oidc
        self.audience = audience
        apiScopes = names
    }
}

/// Everything needed to build the tokens of one successful B2C grant.
struct B2CGrant: Sendable {
    var client: Application
    var authority: B2CAuthority
    var scopes: B2CScopeRequest
    var issuedAt: Int
    /// When the user last signed in (B2C puts `auth_time` in every ID token).
    var authTime: Int
    var nonce: String?
    /// True for the tokens of the sign-up that created the user.
    var newUser: Bool
    var includeClientInfo: Bool
}
