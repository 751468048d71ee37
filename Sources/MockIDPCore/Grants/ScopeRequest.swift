import MockIDPText

/// The `scope` parameter of a token request, split into OpenID Connect scopes and the scopes of one API.
struct ScopeRequest: Sendable {
    /// The scopes exactly as the client wrote them, in order (echoed in the response).
    let requested: [String]
    /// `openid`, `profile`, `email`, `offline_access` as requested.
    let openIDScopes: Set<String>
    /// The API the other scopes belong to (Graph when only OpenID scopes were asked for).
    let resource: APIResource
    /// How the client named the API (`api://contoso-api`, `https://graph.microsoft.com`), nil for bare Graph scopes.
    private(set) var resourceIdentifier: String?
    /// Scope names on that API without the resource prefix (empty for `.default`).
    let apiScopes: [String]
    /// Whether the client asked for `{resource}/.default`.
    let isDefault: Bool
    /// A v1 request's `resource`, exactly as sent.
    private(set) var v1Resource: String?

    static let openIDScopeNames: Set<String> = ["openid", "profile", "email", "offline_access"]

    /// The longest `scope` (in bytes) an authorize or device code request may leave in a code until it expires;
    /// longer ones are refused with Entra's invalid_scope before anything is stored (docs/limits-and-security.md).
    /// A hundred Graph scopes written in full take some 4,000.
    package static let maximumLength = 8192

    /// The longest of `openIDScopeNames`, in bytes.
    private static let longestOpenIDScope = openIDScopeNames.map(\.utf8.count).max() ?? 0

    /// Whether `scope` is one of `openIDScopeNames`. A longer scope (an API's, such as `{resource}/.default`) is told
    /// by its length, without hashing it.
    static func isOpenIDScope(_ scope: String) -> Bool {
        scope.utf8.count <= longestOpenIDScope && openIDScopeNames.contains(scope)
    }

    /// The space-separated words of `text` (RFC 6749 §3.3), split on bytes: splitting a `String` by `Character`
    /// walks grapheme clusters, which costs more than the rest of the scope check on the token path.
    static func words(_ text: String) -> [String] {
        text.utf8.split(separator: UInt8(ascii: " ")).map { String(Substring($0)) }
    }

    /// Whether `text` holds exactly one word (`words(text).count == 1`), without making the words.
    static func isOneWord(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var words = 0
            var inWord = false
            for byte in bytes {
                if byte == UInt8(ascii: " ") {
                    inWord = false
                } else if !inWord {
                    inWord = true
                    words += 1
                    if words > 1 { return false }
                }
            }
            return words == 1
        }
    }

    /// One scope of an API, `{resource}/{name}` or a bare Graph scope `{name}`: the API it names, the prefix as
    /// written (nil for a bare scope) and the name. Throws for characters a scope cannot hold, an empty name or an
    /// API the tenant does not know.
    static func apiScope(_ scope: String, tenant: Tenant, directory: Directory,
                         graphResource: String) throws(OAuthError) -> (resource: APIResource, prefix: String?, name: String) {
        // Over the bytes where they lie, not through the UTF-8 view a byte at a time.
        var text = scope
        let printable = text.withUTF8 { bytes in
            bytes.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
        }
        guard printable else { throw .invalidScope(scope) }
        // By byte: `String.lastIndex(of:)` walks the scope's grapheme clusters.
        guard let slash = scope.utf8.lastIndex(of: UInt8(ascii: "/")) else {
            // Entra: a scope without a resource prefix belongs to Microsoft Graph.
            guard !scope.isEmpty else { throw .invalidScope(scope) }
            return (.graph, nil, scope)
        }
        let prefix = String(scope[..<slash])
        let name = String(scope[scope.index(after: slash)...])
        guard !name.isEmpty else { throw .invalidScope(scope) }
        let p = prefix.lowercasedIfNeeded()
        if p == graphResource || p == "https://graph.microsoft.com" || p == APIResource.graphAppID {
            return (.graph, prefix, name)
        } else if let app = directory.api(lowercased: p, in: tenant) {
            return (.app(app), prefix, name)
        } else if let azure = AzureResource.named(prefix, cloud: tenant.cloud) {
            return (.azure(azure), prefix, name)
        }
        throw .unknownResource(prefix, tenant: tenant.displayName)
    }

    // Entra: v1 user grants for a resource always return an ID token and a refresh token.
    var wantsIDToken: Bool { v1Resource != nil || openIDScopes.contains("openid") }
    var wantsRefreshToken: Bool { v1Resource != nil || openIDScopes.contains("offline_access") }

    /// The v2 scope that stands for a v1 `resource`: `{resource without trailing slashes}/.default`.
    static func v1DefaultScope(_ resource: String) -> String {
        var name = Substring(resource)
        while name.hasSuffix("/") { name = name.dropLast() }
        return "\(name)/.default"
    }

    /// A v1 request's `resource` (an identifier URI, an app ID or Graph's URI, with or without a trailing slash):
    /// Entra grants for it what v2 grants for `{resource}/.default`, and names it in `aud` exactly as sent.
    init(v1Resource resource: String, tenant: Tenant, directory: Directory, graphResource: String) throws(OAuthError) {
        guard !resource.contains(" "), resource.contains(where: { $0 != "/" }) else {
            throw .unknownResource(resource, tenant: tenant.displayName)
        }
        try self.init(Self.v1DefaultScope(resource), tenant: tenant, directory: directory, graphResource: graphResource)
        resourceIdentifier = resource
        v1Resource = resource
    }

    /// Parses and checks `scope` against the directory (docs/entra-behaviour.md, "Scopes"). `graphResource` is
    /// the cloud's (`Cloud.graphResource`, lower case).
    init(_ scopeParameter: String, tenant: Tenant, directory: Directory, graphResource: String) throws(OAuthError) {
        let scopes = Self.words(scopeParameter)
        requested = scopes
        var oidc = Set<String>()
        var resource: APIResource?
        var identifier: String?
        var names: [String] = []
        var isDefault = false
        for scope in scopes {
            if Self.isOpenIDScope(scope) { oidc.insert(scope); continue }
            let (found, prefix, name) = try Self.apiScope(scope, tenant: tenant, directory: directory, graphResource: graphResource)
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
