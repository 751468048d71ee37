import MockIDPCore

/// Reading the keys of Graph's directory slice: groups, `groupMembershipClaims`, a user's Graph profile and photo.
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
            report(origin.child(key: problem.key, line: origin.line), problem.reason)
            profile[problem.key] = nil
        }
        return profile
    }

    /// A user's photo file, read relative to the configuration's directory and checked (JPEG or PNG, bounded).
    mutating func photo(_ path: Sourced<String>) -> UserPhoto? {
        guard let bytes = file(path, kind: "photo", limit: UserPhoto.maximumBytes) else { return nil }
        switch UserPhoto.read(source: path.value, bytes: bytes) {
        case .failure(let problem):
            report(path.origin, "photo '\(path.value)' \(problem)")
            return nil
        case .success(let photo): return photo
        }
    }
}
