import MockIDPJOSE
import MockIDPText

/// A person who can sign in to a tenant.
public struct User: Sendable, Equatable {
    /// The sign-in name (UPN), compared without regard to case.
    public var username: String
    /// The password the sign-in page and the password grant accept.
    public var password: String
    /// The display name (`name`).
    public var name: String?
    /// The object ID (`oid`), lower-case GUID.
    public var objectID: String
    /// The e-mail address (`email` when the `email` scope is asked for).
    public var email: String?
    /// Group object IDs.
    public var groups: [String]
    /// App roles assigned to the user.
    public var roles: [String]
    /// Extra claims copied into ID and access tokens.
    public var claims: JSONObject
    /// When true, requests that would need multi-factor authentication fail (AADSTS50076).
    public var requireMFA: Bool
    /// The home tenant of a guest user.
    public var homeTenantID: String?
    /// The photo Graph's `/photo/$value` serves (none: 404 `ImageNotFound`).
    public var photo: UserPhoto?
    /// More Graph user properties by Graph's names (`givenName`, `jobTitle`, …), served by Graph's `user` object.
    public var profile: JSONObject = JSONObject()
    /// Made on the fly by a tenant with `signIn.anyUser` when someone signed in with a name it did not list: any
    /// password signs in as this user, and each sign-in may bring its own `claims`.
    public var isMadeOnTheFly: Bool = false

    /// A user; `objectID` is usually `User.derivedObjectID(tenantID:username:)` when none is configured.
    public init(username: String, password: String, name: String? = nil, objectID: String, email: String? = nil,
                groups: [String] = [], roles: [String] = [], claims: JSONObject = [:], requireMFA: Bool = false,
                homeTenantID: String? = nil) {
        self.username = username
        self.password = password
        self.name = name
        self.objectID = objectID
        self.email = email
        self.groups = groups
        self.roles = roles
        self.claims = claims
        self.requireMFA = requireMFA
        self.homeTenantID = homeTenantID
    }

    /// A stable object ID for a user who has none configured: a name-based GUID of tenant and username,
    /// so the same configuration gives the same `oid` on every machine and every start.
    public static func derivedObjectID(tenantID: String, username: String) -> String {
        GUID.derived(from: "user:\(tenantID.lowercasedIfNeeded()):\(username.lowercasedIfNeeded())")
    }
}
