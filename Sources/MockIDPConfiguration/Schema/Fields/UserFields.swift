import MockIDPCore
import MockIDPText

/// The keys of a `users:` entry (also the body of the control API's `POST …/users`), in print order.
package enum UserFields {
    package typealias UserField<Value: FieldValue> = Field<UserEntry, User, Value>

    package static let username = UserField<String>(
        "username", .name, "The sign-in name (UPN), such as alice@contoso.onmicrosoft.com.", required: true,
        read: { decoder, node, origin, entry in
            let reason = "must be a user name such as alice@contoso.onmicrosoft.com (no spaces)"
            guard let name = decoder.requiredString(node, at: origin, reason: reason) else { return }
            guard !name.unicodeScalars.contains(where: { $0.isWhitespace || $0.value < 0x20 }) else {
                decoder.report(origin, reason)
                return
            }
            entry.user.username = name
        },
        print: { .text($0.username) })

    // Required but in a `signIn: otp` External ID tenant, whose users sign in with mailed codes: the validator checks
    // it, knowing the tenant.
    package static let password = UserField<String>(
        "password", .text, "The password the sign-in page and the password grant accept (users of a signIn: otp External ID tenant need none).",
        read: { decoder, node, origin, entry in entry.user.password = decoder.requiredString(node, at: origin) ?? "" },
        print: { .text($0.password) })

    package static let name = UserField<String>.text("name", "The display name (the `name` claim).", \.name)

    package static let objectID = UserField<String>(
        "oid", .guid, "The object ID; by default a stable GUID derived from the tenant and the username.",
        read: { decoder, node, origin, entry in
            guard let oid = decoder.guid(node, at: origin) else { return }
            entry.user.objectID = oid
            entry.objectIDOrigin = origin
        },
        print: { .text($0.objectID) })

    package static let email = UserField<String>.text("email", "The e-mail address (the `email` claim).", \.email)

    package static let groups = UserField<[String]>(
        "groups", .list(.guid), "Object IDs of the groups the user is a member of (the `groups` claim).",
        read: { decoder, node, origin, entry in
            entry.user.groups = decoder.strings(node, at: origin).compactMap { group in
                guard GUID.isValid(group.value) else {
                    decoder.report(group.origin, "must be a GUID (a group's object id)")
                    return nil
                }
                return group.value.lowercased()
            }
        },
        print: { .list($0.groups) })

    package static let roles = UserField<[String]>.names("roles", "App roles assigned to the user (the `roles` claim).", \.roles)

    package static let claims = UserField<ClaimSet>(
        "claims", .object, "Extra claims copied into ID and access tokens.",
        read: { decoder, node, origin, entry in entry.user.claims = decoder.claims(node, at: origin) },
        print: { $0.claims.isEmpty ? nil : .object($0.claims) })

    package static let requireMFA = UserField<Bool>.flag(
        "requireMfa", "Token requests that would need multi-factor authentication fail (AADSTS50076).", \.requireMFA,
        printedWhenFalse: true)

    package static let homeTenant = UserField<String>(
        "homeTenant", .guid, "The home tenant of a guest user (another tenant of the configuration).",
        read: { decoder, node, origin, entry in
            entry.user.homeTenantID = decoder.guid(node, at: origin)
            entry.homeTenantOrigin = entry.user.homeTenantID == nil ? nil : origin
        },
        print: { .text($0.homeTenantID) })

    package static let photo = UserField<String>(
        "photo", .filePath, "A JPEG or PNG file Graph's /photo/$value serves (none: 404 ImageNotFound).",
        read: { decoder, node, origin, entry in
            guard let path = decoder.optionalString(node, at: origin) else { return }
            entry.user.photo = decoder.photo(Sourced(value: path, origin: origin))
        },
        print: { .text($0.photo?.source) })

    package static let profile = UserField<ClaimSet>(
        "profile", .object, "More Graph user properties by Graph's names (givenName, surname, jobTitle, …).",
        read: { decoder, node, origin, entry in entry.user.profile = decoder.graphProfile(node, at: origin) },
        print: { $0.profile.isEmpty ? nil : .object($0.profile) })

    static let table = FieldTable(username, password, name, objectID, email, groups, photo, profile, roles, claims, requireMFA, homeTenant)
}

extension UserEntry: ModelEntry {
    static var modelPath: FieldPath<UserEntry, User> { \.user }
}
