/// A Graph call of the directory slice, as its path names it (`GraphRequest.route`).
package enum GraphOperation: Sendable, Equatable {
    /// Whose: the signed-in user (`me`) or a user by id or user principal name.
    package enum Subject: Sendable, Equatable {
        case me
        case user(String)
    }

    /// The membership actions (`POST …/getMemberObjects`, …).
    package enum MembershipAction: String, Sendable, CaseIterable {
        case getMemberObjects, getMemberGroups, checkMemberGroups
    }

    case user(Subject)
    case users
    /// `users/$count`.
    case userCount
    /// `…/photo` (metadata).
    case photo(Subject)
    /// `…/photo/$value`, or `…/photos/{size}/$value` with the size.
    case photoValue(Subject, size: String?)
    case memberOf(Subject, transitive: Bool)
    case membership(Subject, MembershipAction)
    case groups
    case group(String)
    case groupMembers(String)
    case organization

    /// The HTTP method the call takes.
    package var method: String {
        if case .membership = self { return "POST" }
        return "GET"
    }

    /// The operation a path names (segments after the version, percent-decoded), or the segment that is wrong.
    package static func route(_ segments: [String]) -> Result<GraphOperation, OAuthError> {
        var rest = segments[...]
        guard let first = rest.popFirst() else { return .failure(.graphUnknownSegment("")) }
        switch first.lowercased() {
        case "me":
            return subjectRoute(.me, rest)
        case "users":
            guard let id = rest.popFirst() else { return .success(.users) }
            if id == "$count", rest.isEmpty { return .success(.userCount) }
            return subjectRoute(.user(id), rest)
        case "groups":
            guard let id = rest.popFirst() else { return .success(.groups) }
            guard let next = rest.popFirst() else { return .success(.group(id)) }
            guard next.lowercased() == "members", rest.isEmpty else { return .failure(.graphUnknownSegment(rest.first ?? next)) }
            return .success(.groupMembers(id))
        case "organization":
            guard rest.isEmpty else { return .failure(.graphUnknownSegment(rest.first ?? "")) }
            return .success(.organization)
        default:
            return .failure(.graphUnknownSegment(first))
        }
    }

    private static func subjectRoute(_ subject: Subject, _ segments: ArraySlice<String>) -> Result<GraphOperation, OAuthError> {
        var rest = segments
        guard let next = rest.popFirst() else { return .success(.user(subject)) }
        let operation: GraphOperation
        switch next.lowercased() {
        case "photo":
            guard let value = rest.popFirst() else { return .success(.photo(subject)) }
            guard value == "$value" else { return .failure(.graphUnknownSegment(value)) }
            operation = .photoValue(subject, size: nil)
        case "photos":
            guard let size = rest.popFirst(), rest.popFirst() == "$value" else { return .failure(.graphUnknownSegment(rest.first ?? "photos")) }
            operation = .photoValue(subject, size: size)
        case "memberof": operation = .memberOf(subject, transitive: false)
        case "transitivememberof": operation = .memberOf(subject, transitive: true)
        default:
            guard let action = MembershipAction.allCases.first(where: { $0.rawValue.lowercased() == next.lowercased() }) else {
                return .failure(.graphUnknownSegment(next))
            }
            operation = .membership(subject, action)
        }
        guard rest.isEmpty else { return .failure(.graphUnknownSegment(rest.first ?? "")) }
        return .success(operation)
    }

    /// The user the call is about, if any.
    package var subject: Subject? {
        switch self {
        case .user(let s), .photo(let s), .photoValue(let s, _), .memberOf(let s, _), .membership(let s, _): s
        case .users, .userCount, .groups, .group, .groupMembers, .organization: nil
        }
    }
}
