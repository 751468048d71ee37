/// One delegated permission: a scope on an API, as a user consents to it for an app and as the consent page lists it.
package struct DelegatedPermission: Sendable, Hashable {
    /// The API's application ID (Microsoft Graph's for `openid`, `profile`, `email` and `offline_access`).
    package var resourceID: String
    /// The scope's name on that API (`User.Read`, `access_as_user`).
    package var scope: String

    package init(resourceID: String, scope: String) {
        self.resourceID = resourceID
        self.scope = scope
    }
}

/// Who consented to what for whom: Entra's delegated permission grant (Graph's `oAuth2PermissionGrant`), one per
/// user, client app and API, whose scopes grow with each consent.
package struct ConsentGrant: Sendable, Equatable {
    package var tenantID: String
    package var userObjectID: String
    package var username: String
    package var clientID: String
    package var resourceID: String
    /// The scopes consented to, in the order they were first granted.
    package var scopes: [String]
}

/// The consents users gave, by user, client and API. Consents do not expire (Entra keeps them until revoked), so
/// the store is bounded by count and by the bytes of scope names it keeps: when full, everything is forgotten, as the
/// other stores do (apps then ask again). Each grant's scopes are bounded as Graph bounds a grant's.
struct ConsentStore: Sendable {
    private struct Key: Hashable {
        var tenantID: String
        var userObjectID: String
        var clientID: String
        var resourceID: String
    }

    private var grants: [Key: ConsentGrant] = [:]
    let capacity: Int
    /// The bytes of scope names the grants keep together.
    private(set) var keptBytes = 0

    /// A grant's scopes, written space-separated, are at most this long: Microsoft Graph's oAuth2PermissionGrant
    /// resource type says of `scope` "Must not exceed 3,850 characters in length"
    /// (https://learn.microsoft.com/graph/api/resources/oauth2permissiongrant). A consent that would pass it drops the
    /// grant's oldest scopes (the app asks for them again when it needs them).
    static let maximumScopeLength = 3850
    /// The most bytes of scope names all grants keep: 16 MiB, some 4,000 grants at the per-grant bound, and far more
    /// than the count bound at ordinary sizes.
    static let keptBytesCapacity = 16 << 20

    init(capacity: Int) { self.capacity = capacity }

    /// Whether `username` (`userObjectID` of `tenantID`) consented to `permission` for `clientID`. Scope names
    /// compare without case, as Entra's do.
    func holds(_ permission: DelegatedPermission, tenantID: String, userObjectID: String, clientID: String) -> Bool {
        let key = Key(tenantID: tenantID, userObjectID: userObjectID, clientID: clientID, resourceID: permission.resourceID.lowercased())
        guard let grant = grants[key] else { return false }
        let scope = permission.scope.lowercased()
        return grant.scopes.contains { $0.lowercased() == scope }
    }

    /// Adds `permissions` to the user's grants for `clientID`, one grant per API; scopes already granted stay.
    mutating func grant(_ permissions: [DelegatedPermission], tenantID: String, userObjectID: String, username: String, clientID: String) {
        for permission in permissions {
            let key = Key(tenantID: tenantID, userObjectID: userObjectID, clientID: clientID, resourceID: permission.resourceID.lowercased())
            if grants[key] == nil, grants.count >= capacity || keptBytes + Self.maximumScopeLength > Self.keptBytesCapacity {
                removeAll()
            }
            var grant = grants[key] ?? ConsentGrant(tenantID: tenantID, userObjectID: userObjectID, username: username,
                                                    clientID: clientID, resourceID: key.resourceID, scopes: [])
            let before = Self.scopeLength(grant.scopes)
            let scope = permission.scope.lowercased()
            if !grant.scopes.contains(where: { $0.lowercased() == scope }) {
                grant.scopes.append(permission.scope)
            }
            while Self.scopeLength(grant.scopes) > Self.maximumScopeLength { grant.scopes.removeFirst() }
            keptBytes += Self.scopeLength(grant.scopes) - before
            grants[key] = grant.scopes.isEmpty ? nil : grant
        }
    }

    /// The length of `scopes` written space-separated, as Graph writes a grant's `scope`.
    private static func scopeLength(_ scopes: [String]) -> Int {
        scopes.reduce(max(0, scopes.count - 1)) { $0 + $1.utf8.count }
    }

    /// Removes the grants `matching` selects; returns how many went.
    mutating func revoke(where matching: (ConsentGrant) -> Bool) -> Int {
        let before = grants.count
        grants = grants.filter { !matching($0.value) }
        keptBytes = grants.values.reduce(0) { $0 + Self.scopeLength($1.scopes) }
        return before - grants.count
    }

    mutating func removeAll() {
        grants.removeAll()
        keptBytes = 0
    }

    /// Every grant, ordered by user, client and API (stable for listings).
    var all: [ConsentGrant] {
        grants.values.sorted { ($0.username, $0.clientID, $0.resourceID) < ($1.username, $1.clientID, $1.resourceID) }
    }
}
