import MockIDPJOSE

/// Graph v1.0's objects as this server serves them, with Graph's property names, types and `@odata.type`
/// (Microsoft Learn, "user resource type", "group resource type", "organization resource type", "directoryObject").
package enum GraphObjects {
    /// Every property of `user` this server knows, in Graph's order: the default set first, then the rest.
    package static func user(_ user: User, in tenant: Tenant) -> JSONObject {
        let (given, family) = TokenFactory.splitName(user.name)
        var object = JSONObject()
        for name in GraphUserProperties.defaultSet { object[name] = .null }
        object["businessPhones"] = .array([])
        object["displayName"] = user.name.map(JSONValue.string) ?? .null
        object["givenName"] = given.map(JSONValue.string) ?? .null
        object["surname"] = family.map(JSONValue.string) ?? .null
        object["mail"] = user.email.map(JSONValue.string) ?? .null
        object["userPrincipalName"] = .string(user.username)
        object["id"] = .string(user.objectID)
        for (name, _) in GraphUserProperties.profile where object[name] == nil {
            object[name] = name == "otherMails" ? .array([]) : .null
        }
        object["accountEnabled"] = true
        object["userType"] = .string(user.homeTenantID == nil ? "Member" : "Guest")
        object.merge(user.profile)
        return object
    }

    /// `object` cut to `select` (nil: Graph's default set of the resource), in the order asked.
    package static func selecting(_ object: JSONObject, _ select: [String]?, defaults: [String]?) -> JSONObject {
        guard let names = select ?? defaults else { return object }
        return JSONObject(names.map { ($0, object[$0] ?? .null) })
    }

    /// The properties of `group` (the ones a directory group has here; unset ones null, as Graph sends them).
    package static func group(_ group: Group) -> JSONObject {
        let nickname = group.mail.map { String($0.prefix { $0 != "@" }) } ?? String(group.id.prefix(8))
        return [
            "id": .string(group.id), "deletedDateTime": .null, "classification": .null, "createdDateTime": .null,
            "creationOptions": [], "description": .null, "displayName": group.displayName.map(JSONValue.string) ?? .null,
            "expirationDateTime": .null, "groupTypes": [], "isAssignableToRole": .null,
            "mail": group.mail.map(JSONValue.string) ?? .null, "mailEnabled": .bool(group.mailEnabled),
            "mailNickname": .string(nickname), "membershipRule": .null, "membershipRuleProcessingState": .null,
            "onPremisesSyncEnabled": .null, "preferredDataLocation": .null, "preferredLanguage": .null,
            "proxyAddresses": .array(group.mail.map { [.string("SMTP:\($0)")] } ?? []), "renewedDateTime": .null,
            "resourceBehaviorOptions": [], "resourceProvisioningOptions": [], "securityEnabled": .bool(group.securityEnabled),
            "securityIdentifier": .null, "theme": .null, "visibility": .null,
        ]
    }

    /// The properties `$select` and `$filter` know on a group.
    package static let groupProperties: Set<String> = Set(group(Group(id: "")).keys)

    /// `$filter`'s properties of a group: its scalars.
    package static let groupFilter = GraphFilter.Properties(
        ["id": .string, "displayName": .string, "mail": .string, "mailNickname": .string, "mailEnabled": .boolean,
         "securityEnabled": .boolean], resource: "Group")

    /// `$filter`'s properties of a user: the scalar ones this server serves.
    package static let userFilter = GraphFilter.Properties(
        Dictionary(uniqueKeysWithValues: GraphUserProperties.profile.filter { $0.kind != .strings }.map { ($0.name, $0.kind) }
                   + GraphUserProperties.fromUser.map { ($0, .string) }), resource: "User")

    /// The tenant as Graph's `organization`.
    package static func organization(_ tenant: Tenant) -> JSONObject {
        let domains: [JSONValue] = tenant.domains.enumerated().map { index, domain in
            ["capabilities": "Email, OfficeCommunicationsOnline", "isDefault": .bool(index == 0),
             "isInitial": .bool(domain.lowercased().hasSuffix(".onmicrosoft.com")), "name": .string(domain), "type": "Managed"]
        }
        return [
            "id": .string(tenant.id), "deletedDateTime": .null, "businessPhones": [], "city": .null, "country": .null,
            "countryLetterCode": .null, "createdDateTime": .null, "defaultUsageLocation": .null,
            "displayName": .string(tenant.displayName), "isMultipleDataLocationsForServicesEnabled": .null,
            "marketingNotificationEmails": [], "onPremisesLastSyncDateTime": .null, "onPremisesSyncEnabled": .null,
            "postalCode": .null, "preferredLanguage": .null, "securityComplianceNotificationMails": [],
            "securityComplianceNotificationPhones": [], "state": .null, "street": .null, "technicalNotificationMails": [],
            "tenantType": "AAD", "directorySizeQuota": .null, "privacyProfile": .null, "assignedPlans": [],
            "provisionedPlans": [], "verifiedDomains": .array(domains),
        ]
    }

    /// `object` as an item of a `directoryObject` collection: `@odata.type` first.
    package static func directoryObject(_ object: JSONObject, type: String) -> JSONObject {
        var typed: JSONObject = ["@odata.type": .string("#microsoft.graph.\(type)")]
        typed.merge(object)
        return typed
    }
}
