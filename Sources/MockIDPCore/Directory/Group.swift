/// A directory group (Microsoft Graph's `group`): what users' `groups` lists name, what the `groups` claim and
/// Graph's `memberOf` and `getMemberObjects` return.
public struct Group: Sendable, Equatable {
    /// The object ID, lower-case GUID.
    public var id: String
    /// The display name; a group nobody defined is named after its id.
    public var displayName: String?
    /// A security group (Entra's `securityEnabled`): the `SecurityGroup` kind of `groupMembershipClaims` counts it.
    public var securityEnabled: Bool
    /// The group's mail address; a group with one is mail-enabled.
    public var mail: String?

    /// A group; only `id` is required, and it is a security group unless told.
    public init(id: String, displayName: String? = nil, securityEnabled: Bool = true, mail: String? = nil) {
        self.id = id
        self.displayName = displayName
        self.securityEnabled = securityEnabled
        self.mail = mail
    }

    /// Graph's `mailEnabled`: the group has a mail address.
    public var mailEnabled: Bool { mail != nil }

    /// The group a user's `groups` names when no `groups:` entry defines that id: a security group named after it.
    public static func standard(id: String) -> Group {
        Group(id: id, displayName: "Group \(id.prefix(8))")
    }
}

/// Which groups an app's tokens carry in the `groups` claim: the app manifest's `groupMembershipClaims`
/// (Microsoft Learn, "Microsoft Entra app manifest": None, SecurityGroup, ApplicationGroup, DirectoryRole, All).
public enum GroupMembershipClaims: String, Sendable, CaseIterable {
    /// No `groups` claim (Entra's default).
    case none = "None"
    /// The security groups the user is a member of.
    case securityGroup = "SecurityGroup"
    /// Every group: security groups and mail-enabled (distribution) groups.
    case all = "All"
    /// The groups assigned to the application. This server keeps no app-to-group assignments, so every group of
    /// the user counts as assigned.
    case applicationGroup = "ApplicationGroup"

    /// The ids of `groups` this setting puts in the claim.
    func claimed(_ groups: [Group]) -> [String] {
        switch self {
        case .none: []
        case .securityGroup: groups.filter(\.securityEnabled).map(\.id)
        case .all, .applicationGroup: groups.map(\.id)
        }
    }
}
