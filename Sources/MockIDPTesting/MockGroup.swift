import MockIDPConfiguration
import MockIDPJOSE

/// A directory group to add at run time (`MockIdentityProvider.addGroup(_:tenant:)`), with the keys of a
/// configuration file's `groups:` entry: what users' `groups` name, the `groups` claim and Graph's group objects.
public struct MockGroup: Sendable {
    /// `id`: the group's object ID (a GUID).
    public var id: String
    /// `displayName`.
    public var displayName: String?
    /// `securityEnabled`: a security group (nil: the server's default, true).
    public var securityEnabled: Bool?
    /// `mail`: a mail-enabled group's address.
    public var mail: String?

    /// A group with the given fields.
    public init(id: String, displayName: String? = nil, securityEnabled: Bool? = nil, mail: String? = nil) {
        self.id = id
        self.displayName = displayName
        self.securityEnabled = securityEnabled
        self.mail = mail
    }

    /// The JSON body of the control call, keyed as in the configuration file (the keys are `GroupFields`').
    public var json: JSONValue {
        var body = FieldBody()
        body.set(GroupFields.id, id)
        body.set(GroupFields.displayName, displayName)
        body.set(GroupFields.securityEnabled, securityEnabled)
        body.set(GroupFields.mail, mail)
        return .object(body.object)
    }
}
