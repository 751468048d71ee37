import MockIDPCore

/// The keys of a tenant's `groups:` entry (also the body of the control API's `POST …/groups`), in print order.
package enum GroupFields {
    package typealias GroupField<Value: FieldValue> = Field<GroupEntry, Group, Value>

    package static let id = GroupField<String>(
        "id", .guid, "The group's object ID (what users' groups lists name).", required: true,
        read: { decoder, node, origin, entry in
            entry.group.id = decoder.guid(node, at: origin, required: true) ?? ""
            entry.idOrigin = origin
        },
        print: { .text($0.id) })

    package static let displayName = GroupField<String>.text("displayName", "The group's display name.", \.displayName)

    package static let securityEnabled = GroupField<Bool>(
        "securityEnabled", .boolean, "A security group (default true); groupMembershipClaims: SecurityGroup counts only these.",
        read: { decoder, node, origin, entry in entry.group.securityEnabled = decoder.bool(node, at: origin) ?? true },
        print: { $0.securityEnabled ? nil : .scalar("false") })

    package static let mail = GroupField<String>.text("mail", "The group's mail address; mailEnabled follows.", \.mail)

    static let table = FieldTable(id, displayName, securityEnabled, mail)
}

/// One entry of `groups:`, complete (a later file replaces a group whole), with the origins validation needs.
package struct GroupEntry {
    var group: Group
    /// The group's mapping.
    var origin: Origin
    var idOrigin: Origin
}

extension GroupEntry: ModelEntry {
    static var modelPath: FieldPath<GroupEntry, Group> { \.group }
}
