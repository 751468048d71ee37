import Synchronization
import MockIDPJOSE

/// What `mockidp token` asks for: a token minted offline with the provider's keys and claims rules, for a
/// tenant, a client, optionally a user, and scopes.
package struct MintRequest: Sendable {
    /// Which token to mint.
    package enum Kind: String, Sendable, CaseIterable {
        /// An access token: delegated when a user is named, app-only (client credentials shape) otherwise.
        case access
        /// An ID token for the user and client.
        case id
    }

    /// Which token to mint.
    package var kind: Kind
    /// The tenant GUID or one of its domains.
    package var tenant: String
    /// The client (application) ID the token is issued to.
    package var clientID: String
    /// The user's username (UPN); required for ID tokens.
    package var username: String?
    /// Scopes as a client would send them (`api://contoso-api/access_as_user`, `User.Read`, `{resource}/.default`).
    package var scopes: [String]
    /// Extra claims as `name=value`: the value is JSON when it parses as JSON, else the string itself.
    package var claims: [(name: String, value: String)]
    /// Seconds until `exp`; nil for the configuration's `tokens.lifetime`.
    package var lifetime: Int?
    /// The ID token version (1 or 2); access tokens take their API's version, as the server issues them.
    package var idTokenVersion: Int
    /// `scheme://host[:port]` the server is reached at: it decides the v2 issuer and the cloud.
    package var baseURL: String
    /// The one defect the token carries (`mockidp token --defect`, `mockidp probe`); nil for a clean token.
    package var defect: TokenDefect?

    /// A request for `kind` issued to `clientID` in `tenant`, on the server at `baseURL`.
    package init(kind: Kind, tenant: String, clientID: String, username: String? = nil, scopes: [String] = [],
                claims: [(name: String, value: String)] = [], lifetime: Int? = nil, idTokenVersion: Int = 2,
                baseURL: String, defect: TokenDefect? = nil) {
        self.kind = kind
        self.tenant = tenant
        self.clientID = clientID
        self.username = username
        self.scopes = scopes
        self.claims = claims
        self.lifetime = lifetime
        self.idTokenVersion = idTokenVersion
        self.baseURL = baseURL
        self.defect = defect
    }
}

/// Tokens minted offline (`mockidp token`, `mockidp probe`), as the token endpoint would issue them.
package struct TokenMinting {
    let provider: IdentityProvider

    /// Mints the token `request` describes, with the same factory and claims rules as the token endpoint, signed by
    /// the active key. Fails with the error the token endpoint would give for the same tenant, client, user or scope.
    /// With a `defect`, the token carries it, or minting fails when the token cannot carry it (a nonce or hash defect
    /// on a token without that claim): a defective token is never silently clean.
    package func mint(_ request: MintRequest) -> Result<String, OAuthError> {
        do throws(OAuthError) {
            guard let defect = request.defect else { return .success(try mintToken(request, tamper: nil)) }
            let kind: TokenKind = request.kind == .id ? .id : .access
            let applied = DefectApplied()
            let token = try mintToken(request) { tokenKind, has in
                guard tokenKind == kind, defect.applies(to: kind), defect.requiredClaim.map(has) ?? true else { return nil }
                applied.record()
                return defect
            }
            guard applied.happened else { throw .defectDoesNotApply(defect, kind: kind) }
            return .success(token)
        } catch {
            return .failure(error)
        }
    }

    private func mintToken(_ request: MintRequest,
                           tamper: (@Sendable (TokenKind, (String) -> Bool) -> TokenDefect?)?) throws(OAuthError) -> String {
        let context = provider.scope(RequestHost(baseURL: request.baseURL, host: Self.host(of: request.baseURL)))
        let directory = context.directory
        guard let tenant = directory.tenant(request.tenant) else { throw .tenantNotFound(request.tenant, forDiscovery: false) }
        guard let client = directory.app(request.clientID, in: tenant) else {
            throw .unknownClient(request.clientID, tenant: tenant.id)
        }
        var factory = provider.tokenFactory(directory, context, tenant: tenant, lifetime: request.lifetime)
        factory.tamper = tamper
        let overriding = try Self.claims(request.claims)
        // As the token endpoint would have authenticated this client: a secret, else a certificate, else none.
        let authentication: ClientAuthenticationMethod = !client.isConfidential ? .none : client.secret != nil ? .secret : client.certificates.isEmpty ? .secret : .certificate
        let now = provider.clock.now()
        let scope = request.scopes.joined(separator: " ")
        guard let username = request.username else {
            guard request.kind == .access else { throw .missingParameter("username") }
            let (resource, identifier) = try ClientCredentialsGrant.applicationScope(scope, tenant: tenant, directory: directory)
            let grant = Grant(client: client, clientAuthentication: authentication, scopes: nil, applicationResource: resource,
                              applicationResourceIdentifier: identifier, issuedAt: now, authenticationMethods: [], nonce: nil,
                              includeClientInfo: false)
            let roles = ClientCredentialsGrant.applicationRoles(client: client, resource: resource, cloud: factory.cloud)
            return try factory.applicationAccessToken(grant, roles: roles, tenant: tenant, overriding: overriding)
        }
        guard let user = directory.user(username, in: tenant) else { throw .unknownUser(username, tenant: tenant.displayName) }
        let scopes: ScopeRequest
        switch request.kind {
        case .access:
            guard !scope.isEmpty else { throw .missingParameter("scope") }
            scopes = try ScopeRequest(scope, tenant: tenant, directory: directory, graphResource: factory.cloud.graphResource)
        case .id:
            scopes = try ScopeRequest(scope.isEmpty ? "openid profile" : scope, tenant: tenant, directory: directory,
                                      graphResource: factory.cloud.graphResource)
        }
        let grant = Grant(client: client, clientAuthentication: authentication, scopes: scopes, applicationResource: nil,
                          applicationResourceIdentifier: nil, issuedAt: now, authenticationMethods: ["pwd"], nonce: nil,
                          includeClientInfo: false)
        switch request.kind {
        case .access: return try factory.userAccessToken(grant, user: user, tenant: tenant, overriding: overriding)
        case .id: return try factory.idToken(grant, user: user, tenant: tenant, version: request.idTokenVersion == 1 ? .v1 : .v2, overriding: overriding)
        }
    }

    /// `name=value` pairs as claims: JSON values as parsed, anything else as a string.
    private static func claims(_ pairs: [(name: String, value: String)]) throws(OAuthError) -> JSONObject {
        var claims = JSONObject()
        for (name, value) in pairs {
            guard !name.isEmpty else { throw .invalidParameter("claim", "needs a name before '='") }
            claims[name] = (try? JSONValue.parse(value)) ?? .string(value)
        }
        return claims
    }

    /// The host of `scheme://host[:port]`, lower-case, without brackets or port.
    static func host(of baseURL: String) -> String {
        var rest = Substring(baseURL)
        if let scheme = rest.firstRange(of: "://") { rest = rest[scheme.upperBound...] }
        if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") { return String(rest[rest.index(after: rest.startIndex)..<close]) }
        if let colon = rest.lastIndex(of: ":") { rest = rest[..<colon] }
        return rest.lowercased()
    }
}
