import MockIDPConfiguration
import MockIDPJOSE

/// A user for `MockIdentityProvider.addUser(_:tenant:)`: the keys of a user in the YAML configuration.
/// Fields left nil (or empty) are not sent, so the server's defaults apply (a derived `oid`, no MFA).
public struct MockUser: Sendable {
    /// `username`: the sign-in name (UPN).
    public var username: String
    /// `password` (empty: none, for a user of a `signIn: otp` External ID tenant).
    public var password: String
    /// `name`: the display name.
    public var name: String?
    /// `oid`; nil lets the server derive a stable one from tenant and username.
    public var objectID: String?
    /// `email`.
    public var email: String?
    /// `groups`: group object IDs.
    public var groups: [String]
    /// `roles`: app roles assigned to the user.
    public var roles: [String]
    /// `claims`: extra claims copied into ID and access tokens.
    public var claims: JSONObject
    /// `requireMfa`: token requests that would need MFA fail with AADSTS50076.
    public var requireMFA: Bool?
    /// `homeTenant`: the home tenant of a guest user.
    public var homeTenant: String?
    /// `photo`: a JPEG or PNG file Graph's `/photo/$value` serves, a path on the server's machine (relative paths
    /// resolve against the server's working directory).
    public var photo: String?
    /// `profile`: more Graph user properties by Graph's names (`givenName`, `jobTitle`, …).
    public var profile: JSONObject

    /// A user with the given fields.
    public init(username: String, password: String, name: String? = nil, objectID: String? = nil, email: String? = nil,
                groups: [String] = [], roles: [String] = [], claims: JSONObject = [:], requireMFA: Bool? = nil,
                homeTenant: String? = nil, photo: String? = nil, profile: JSONObject = [:]) {
        self.photo = photo
        self.profile = profile
        self.username = username
        self.password = password
        self.name = name
        self.objectID = objectID
        self.email = email
        self.groups = groups
        self.roles = roles
        self.claims = claims
        self.requireMFA = requireMFA
        self.homeTenant = homeTenant
    }

    /// The JSON body of the control call, keyed as in the configuration file (the keys are `UserFields`').
    public var json: JSONValue {
        var body = FieldBody()
        body.set(UserFields.username, username)
        // A code-only External ID tenant's users have none.
        body.set(UserFields.password, password.isEmpty ? nil : password)
        body.set(UserFields.name, name)
        body.set(UserFields.objectID, objectID)
        body.set(UserFields.email, email)
        body.set(UserFields.groups, groups)
        body.set(UserFields.photo, photo)
        body.set(UserFields.profile, profile)
        body.set(UserFields.roles, roles)
        body.set(UserFields.claims, claims)
        body.set(UserFields.requireMFA, requireMFA)
        body.set(UserFields.homeTenant, homeTenant)
        return .object(body.object)
    }
}
