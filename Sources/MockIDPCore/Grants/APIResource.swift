import MockIDPText

/// The API a token is for: Microsoft Graph or another Azure service (built into every tenant), or a configured app.
enum APIResource: Sendable, Equatable {
    case graph
    case azure(AzureResource)
    case app(Application)

    /// Microsoft Graph's well-known application ID.
    static let graphAppID = "00000003-0000-0000-c000-000000000000"

    var clientID: String {
        switch self {
        case .graph: Self.graphAppID
        case .azure(let r): r.appID
        case .app(let a): a.clientID
        }
    }

    var displayName: String {
        switch self {
        case .graph: Self.graphAppID
        case .azure(let r): r.appID
        case .app(let a): a.clientID
        }
    }

    /// Entra: Graph and Azure's own services accept v1 tokens; an app follows its `accessTokenAcceptedVersion`.
    var tokenVersion: TokenVersion {
        switch self {
        case .graph, .azure: .v1
        case .app(let a): a.effectiveAccessTokenVersion == 2 ? .v2 : .v1
        }
    }

    /// App roles this API defines (Graph: any application permission name).
    func definesRole(_ role: String) -> Bool {
        switch self {
        case .graph: GraphPermission.isWellFormed(role)
        case .azure: false
        case .app(let a): a.appRoles.contains(role)
        }
    }

    /// Delegated scopes this API exposes.
    func exposesScope(_ scope: String) -> Bool {
        switch self {
        case .graph: GraphPermission.isWellFormed(scope) || ["email", "openid", "profile", "offline_access"].contains(scope)
        // Entra: Azure's services expose one delegated scope, `user_impersonation`.
        case .azure: scope == "user_impersonation"
        case .app(let a): a.scopes.contains(scope)
        }
    }

    /// Whether an `apiPermissions` key names this API.
    func isNamed(_ key: String, graphResource: String) -> Bool {
        switch self {
        case .graph:
            return key.lowercasedEquals(Self.graphAppID) || key.equalsIgnoringCase(graphResource)
                || key.lowercasedEquals("https://graph.microsoft.com")
        case .azure(let r): return r.isNamed(key.lowercased())
        case .app(let a): return key.lowercasedEquals(a.clientID) || a.identifierURIs.contains { $0.equalsIgnoringCase(key) }
        }
    }
}

/// Microsoft Graph permission names are dotted words: `User.Read`, `Mail.ReadWrite.All`.
enum GraphPermission {
    static func isWellFormed(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2 else { return false }
        return parts.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) } }
    }
}
