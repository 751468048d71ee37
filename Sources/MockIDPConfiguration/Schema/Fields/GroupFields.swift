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

extension ConfigurationDecoder {
    /// One `groups:` entry (also what the control API decodes); nil without a valid id.
    mutating func groupEntry(_ node: YAMLNode, at origin: Origin) -> GroupEntry? {
        guard let fields = fields(of: node, at: origin, table: GroupFields.table) else { return nil }
        var entry = GroupEntry(group: Group(id: ""), origin: fields.origin, idOrigin: fields.origin(of: GroupFields.id))
        read(fields, GroupFields.table, into: &entry)
        return entry.group.id.isEmpty ? nil : entry
    }

    /// `groupMembershipClaims`: one of the manifest's words, without regard to case.
    mutating func groupMembershipClaims(_ node: YAMLNode, at origin: Origin) -> GroupMembershipClaims? {
        if node.isNull { return nil }
        if case .scalar(let scalar) = node.content,
           let kind = GroupMembershipClaims.allCases.first(where: { $0.rawValue.lowercased() == scalar.string.lowercased() }) {
            return kind
        }
        report(origin, "must be one of " + GroupMembershipClaims.allCases.map(\.rawValue).joined(separator: ", "))
        return nil
    }

    /// A user's `profile`: Graph user properties this server serves, each of its Graph type.
    mutating func graphProfile(_ node: YAMLNode, at origin: Origin) -> ClaimSet {
        var profile = claims(node, at: origin)
        for problem in GraphUserProperties.problems(in: profile) {
            report(Origin(file: file, line: origin.line, parent: origin.path, key: problem.key), problem.reason)
            profile[problem.key] = nil
        }
        return profile
    }

    /// A user's photo file, read relative to the configuration's directory and checked (JPEG or PNG, bounded).
    mutating func photo(_ path: Sourced<String>) -> UserPhoto? {
        let location = FileContents.resolve(path.value, against: baseDirectory)
        switch FileContents.read(location, limit: UserPhoto.maximumBytes) {
        case .failure(let failure):
            report(path.origin, "photo '\(path.value)': \(failure)")
            return nil
        case .success(let bytes):
            switch UserPhoto.read(source: path.value, bytes: bytes) {
            case .failure(let problem):
                report(path.origin, "photo '\(path.value)' \(problem)")
                return nil
            case .success(let photo): return photo
            }
        }
    }
}
