/// Which permissions each call of the directory slice needs, as Graph's v1.0 reference pages list them (where the
/// page has separate tables, the one for the signed-in user applies to `me` and to a user's own id). Each
/// alternative is a set of permissions that together suffice ("User.ReadBasic.All and GroupMember.Read.All").
package struct GraphPermissionRule: Sendable, Equatable {
    /// Delegated (`scp`) alternatives when the call is about the signed-in user.
    package var delegatedSelf: [[String]]
    /// Delegated alternatives for another user or for the directory.
    package var delegated: [[String]]
    /// Application (`roles`) alternatives; empty: app-only tokens cannot make the call.
    package var application: [[String]]

    /// Whether `permissions` satisfy one alternative.
    package func allows(_ permissions: Set<String>, delegated isDelegated: Bool, aboutSelf: Bool) -> Bool {
        let alternatives = isDelegated ? (aboutSelf ? delegatedSelf + delegated : delegated) : application
        return alternatives.contains { $0.allSatisfy(permissions.contains) }
    }

    /// The alternatives in words, for the request log.
    package func described(delegated isDelegated: Bool, aboutSelf: Bool) -> String {
        let alternatives = isDelegated ? (aboutSelf ? delegatedSelf + delegated : delegated) : application
        if alternatives.isEmpty { return "none (the call takes no \(isDelegated ? "delegated" : "application") token)" }
        return alternatives.map { $0.joined(separator: " and ") }.joined(separator: ", ")
    }

    private static func any(_ names: String...) -> [[String]] { names.map { [$0] } }

    /// The rule for `operation`.
    package static func rule(for operation: GraphOperation) -> GraphPermissionRule {
        switch operation {
        case .user, .users, .userCount:
            // "Get user", "List users": User.Read for the signed-in user; User.ReadBasic.All and up for others.
            return GraphPermissionRule(
                delegatedSelf: any("User.Read", "User.ReadWrite"),
                delegated: any("User.ReadBasic.All", "User.Read.All", "User.ReadWrite.All", "Directory.Read.All", "Directory.ReadWrite.All"),
                application: any("User.Read.All", "User.ReadWrite.All", "Directory.Read.All", "Directory.ReadWrite.All"))
        case .photo, .photoValue:
            // "Get profilePhoto".
            return GraphPermissionRule(
                delegatedSelf: any("User.Read", "User.ReadWrite"),
                delegated: any("ProfilePhoto.Read.All", "User.ReadBasic.All", "User.Read.All", "User.ReadWrite.All", "Directory.Read.All", "Directory.ReadWrite.All"),
                application: any("ProfilePhoto.Read.All", "User.Read.All", "User.ReadWrite.All", "Directory.Read.All", "Directory.ReadWrite.All"))
        case .memberOf(_, let transitive):
            // "List a user's direct memberships" / "List a user's memberships (direct and transitive)".
            return transitive
                ? GraphPermissionRule(
                    delegatedSelf: any("User.Read"),
                    delegated: any("User.Read.All", "Directory.Read.All", "Directory.ReadWrite.All", "Group.Read.All", "GroupMember.Read.All"),
                    application: any("User.Read.All", "Directory.Read.All", "Directory.ReadWrite.All", "Group.Read.All", "GroupMember.Read.All"))
                : GraphPermissionRule(
                    delegatedSelf: any("User.Read"),
                    delegated: any("User.Read.All", "Directory.Read.All", "Directory.ReadWrite.All", "GroupMember.Read.All"),
                    application: any("Directory.Read.All", "Directory.ReadWrite.All"))
        case .membership(_, .getMemberObjects):
            // "directoryObject: getMemberObjects", memberships for a user.
            return GraphPermissionRule(
                delegatedSelf: any("User.Read"),
                delegated: any("User.Read.All", "Directory.Read.All", "User.ReadWrite.All", "Directory.ReadWrite.All"),
                application: any("User.Read.All", "Directory.Read.All", "User.ReadWrite.All", "Directory.ReadWrite.All"))
        case .membership(_, .getMemberGroups), .membership(_, .checkMemberGroups):
            // "user: getMemberGroups" / "user: checkMemberGroups", group memberships for a user.
            return GraphPermissionRule(
                delegatedSelf: [],
                delegated: [["User.ReadBasic.All", "GroupMember.Read.All"], ["User.Read.All", "GroupMember.Read.All"],
                            ["User.ReadBasic.All", "Group.Read.All"], ["User.Read.All", "Group.Read.All"], ["Directory.Read.All"]],
                application: [["User.Read.All", "GroupMember.Read.All"], ["User.Read.All", "Group.Read.All"], ["Directory.Read.All"]])
        case .groups, .group, .groupMembers:
            // "List groups", "Get group", "List group members".
            let all = any("GroupMember.Read.All", "Group.Read.All", "Directory.Read.All", "Group.ReadWrite.All", "Directory.ReadWrite.All")
            return GraphPermissionRule(delegatedSelf: [], delegated: all, application: all)
        case .organization:
            // "List organization".
            return GraphPermissionRule(
                delegatedSelf: [],
                delegated: any("User.Read", "Organization.Read.All", "Directory.Read.All", "Organization.ReadWrite.All", "Directory.ReadWrite.All"),
                application: any("Organization.Read.All", "Directory.Read.All", "Organization.ReadWrite.All", "Directory.ReadWrite.All"))
        }
    }
}
