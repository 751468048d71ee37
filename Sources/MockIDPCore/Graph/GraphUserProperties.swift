import MockIDPJOSE

/// The properties of Graph's `user` this server serves, by Graph v1.0's names and types (Microsoft Learn, "user
/// resource type"): which a user's `profile` may set, which `GET /users` returns without `$select`, and which
/// `$filter` may name.
package enum GraphUserProperties {
    /// A property's JSON type.
    package enum Kind: Sendable, Equatable {
        case string
        case strings
        case boolean

        /// Whether `value` is of this kind (null is allowed: Graph sends unset properties as null).
        func admits(_ value: JSONValue) -> Bool {
            switch (self, value) {
            case (_, .null), (.string, .string), (.boolean, .bool): true
            case (.strings, .array(let items)): items.allSatisfy { $0.stringValue != nil }
            default: false
            }
        }

        /// The words for a problem.
        package var description: String {
            switch self {
            case .string: "a string"
            case .strings: "a list of strings"
            case .boolean: "true or false"
            }
        }
    }

    /// What a user's `profile` may set; `id`, `displayName`, `userPrincipalName` and `mail` come from the user's
    /// `oid`, `name`, `username` and `email`.
    package static let profile: [(name: String, kind: Kind)] = [
        ("accountEnabled", .boolean), ("ageGroup", .string), ("businessPhones", .strings), ("city", .string),
        ("companyName", .string), ("country", .string), ("department", .string), ("employeeId", .string),
        ("employeeType", .string), ("faxNumber", .string), ("givenName", .string), ("jobTitle", .string),
        ("mailNickname", .string), ("mobilePhone", .string), ("officeLocation", .string), ("otherMails", .strings),
        ("postalCode", .string), ("preferredDataLocation", .string), ("preferredLanguage", .string), ("state", .string), ("streetAddress", .string),
        ("surname", .string), ("usageLocation", .string), ("userType", .string),
    ]

    /// The properties set from the user's own keys.
    package static let fromUser = ["id", "displayName", "userPrincipalName", "mail"]

    /// Every property `$select` may name.
    package static let all: Set<String> = Set(profile.map(\.name) + fromUser)

    /// What `GET /me` and `GET /users` return without `$select`, in Graph's order (the reference's examples).
    package static let defaultSet = ["businessPhones", "displayName", "givenName", "jobTitle", "mail", "mobilePhone",
                                     "officeLocation", "preferredLanguage", "surname", "userPrincipalName", "id"]

    /// Why `profile` cannot be served, one sentence per key; empty when it can.
    package static func problems(in profile: JSONObject) -> [(key: String, reason: String)] {
        let kinds = Dictionary(uniqueKeysWithValues: Self.profile.map { ($0.name, $0.kind) })
        return profile.compactMap { key, value in
            if fromUser.contains(key) {
                return (key, "'\(key)' comes from the user's own keys (oid, name, username, email), not from profile")
            }
            guard let kind = kinds[key] else {
                return (key, "'\(key)' is not a Graph user property this server serves (one of \(Self.profile.map(\.name).joined(separator: ", ")))")
            }
            return kind.admits(value) ? nil : (key, "'\(key)' must be \(kind.description)")
        }
    }
}
