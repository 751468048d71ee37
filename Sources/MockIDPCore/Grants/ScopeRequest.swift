/// The `scope` parameter of a token request, split into OpenID Connect scopes and the scopes of one API.
struct ScopeRequest: Sendable {
    /// The scopes exactly as the client wrote them, in order (echoed in the response).
    let requested: [String]
    /// `openid`, `profile`, `email`, `offline_access` as requested.
    let openIDScopes: Set<String>
    /// The API the other scopes belong to (Graph when only OpenID scopes were asked for).
    let resource: APIResource
    /// How the client named the API (`api://contoso-api`, `https://graph.microsoft.com`), nil for bare Graph scopes.
    let resourceIdentifier: String?
    /// Scope names on that API without the resource prefix (empty for `.default`).
    let apiScopes: [String]
    /// Whether the client asked for `{resource}/.default`.
    let isDefault: Bool

    static let openIDScopeNames: Set<String> = ["openid", "profile", "email", "offline_access"]

    var wantsIDToken: Bool { openIDScopes.contains("openid") }
    var wantsRefreshToken: Bool { openIDScopes.contains("offline_access") }

    /// Parses and checks `scope` against the directory (reference/entra-protocol.md §3.7, §4.3).
    init(_ scopeParameter: String, tenant: Tenant, directory: Directory, graphResource: String) throws(OAuthError) {
        let scopes = scopeParameter.split(whereSeparator: { $0 == " " }).map(String.init)
        requested = scopes
        var oidc = Set<String>()
        var resource: APIResource?
        var identifier: String?
        var names: [String] = []
        var isDefault = false
        for scope in scopes {
            if Self.openIDScopeNames.contains(scope) { oidc.insert(scope); continue }
            guard scope.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) else {
                throw .invalidScope(scope)
            }
            let prefix: String?
            let name: String
            if let slash = scope.lastIndex(of: "/") {
                prefix = String(scope[..<slash])
                name = String(scope[scope.index(after: slash)...])
            } else {
                prefix = nil
                name = scope
            }
            guard !name.isEmpty else { throw .invalidScope(scope) }
            let found: APIResource
            if let prefix {
                let p = prefix.lowercased()
                if p == graphResource.lowercased() || p == "https://graph.microsoft.com" || p == APIResource.graphAppID {
                    found = .graph
                } else if let app = directory.api(prefix, in: tenant) {
                    found = .app(app)
                } else {
                    throw .unknownResource(prefix, tenant: tenant.displayName)
                }
            } else {
                // Entra: a scope without a resource prefix belongs to Microsoft Graph.
                found = .graph
            }
            if let resource, resource != found { throw .multipleResources() }
            resource = found
            identifier = prefix
            if name == ".default" {
                isDefault = true
            } else {
                guard found.exposesScope(name) else { throw .invalidScope(scope) }
                names.append(name)
            }
        }
        // `.default` stands alone for its resource.
        if isDefault, !names.isEmpty { throw .invalidScope(scopeParameter) }
        openIDScopes = oidc
        self.resource = resource ?? .graph
        resourceIdentifier = identifier
        apiScopes = names
        self.isDefault = isDefault
    }
}
