import MockIDPCore
import MockIDPText

/// The keys of a `tenants:` entry, in print order.
package enum TenantFields {
    package typealias TenantField<Value: FieldValue> = Field<TenantOverlay, Tenant, Value>

    package static let id = TenantField<String>(
        "id", .guid, "The tenant ID.", required: true,
        read: { decoder, node, origin, tenant in
            tenant.id = Sourced(value: decoder.guid(node, at: origin, required: true) ?? "", origin: origin)
        },
        print: { .text($0.id) })

    package static let domains = TenantField<[String]>(
        "domains", .list(.hostName), "Verified domains, such as contoso.onmicrosoft.com; the first is the primary one.",
        read: { decoder, node, origin, tenant in
            tenant.domains = decoder.withoutRepeats(decoder.hostNames(node, at: origin), ignoringCase: true)
        },
        print: { .list($0.domains) })

    package static let name = TenantField<String>(
        "name", .text, "The display name (the sign-in page shows it).",
        read: { decoder, node, origin, tenant in
            tenant.name = decoder.optionalString(node, at: origin).map { Sourced(value: $0, origin: origin) }
        },
        print: { .text($0.name) })

    package static let cloud = TenantField<CloudName>(
        "cloud", .choice(of: CloudName.self), "The cloud whose hosts serve the tenant (default public).",
        read: { decoder, node, origin, tenant in
            let cloud: CloudName? = decoder.choice(node, at: origin)
            tenant.cloud = cloud.map { Sourced(value: $0, origin: origin) }
        },
        print: { .scalar($0.cloud.rawValue) })

    package static let signIn = TenantField<Nested>(
        "signIn", .mapping(SignInFields.table.schema), "How the sign-in page and the password grant treat user names the tenant does not list.",
        read: { decoder, node, origin, tenant in
            tenant.signIn = decoder.signIn(node, at: origin).map { Sourced(value: $0, origin: origin) }
        },
        print: { tenant in tenant.signIn.anyUser ? .mapping(SignInFields.table.printed(tenant.signIn)) : nil })

    package static let b2c = TenantField<Nested>(
        "b2c", .mapping(B2CFields.table.schema), "Makes the tenant an Azure AD B2C tenant with these user flows.",
        read: { decoder, node, origin, tenant in
            tenant.b2c = decoder.b2c(node, at: origin).map { Sourced(value: $0, origin: origin) }
        },
        print: { tenant in tenant.b2c.map { .mapping(B2CFields.table.printed($0)) } })

    package static let externalID = TenantField<Nested>(
        "externalId", .mapping(ExternalIDFields.table.schema),
        "Makes the tenant a Microsoft Entra External ID (customer) tenant, served at {subdomain}.ciamlogin.com.",
        read: { decoder, node, origin, tenant in
            tenant.externalID = decoder.externalID(node, at: origin).map { Sourced(value: $0, origin: origin) }
        },
        print: { tenant in tenant.externalID.map { .mapping(ExternalIDFields.table.printed($0)) } })

    package static let users = TenantField<Nested>(
        "users", .list(.mapping(UserFields.table.schema)), "The people who can sign in.",
        read: { decoder, node, origin, tenant in
            for item in decoder.items(node, at: origin, notAList: "must be a list of users") {
                // `externalId` is read before `users`: a code-only tenant's users need no password.
                if let user = decoder.userEntry(item.node, at: item.origin, tenantID: tenant.id.value,
                                                passwordOptional: tenant.externalID?.value.signIn == .otp) { tenant.users.append(user) }
            }
        },
        print: { tenant in tenant.users.isEmpty ? nil : .entries(tenant.users.map(UserFields.table.printed)) })

    package static let apps = TenantField<Nested>(
        "apps", .list(.mapping(AppFields.table.schema)), "The app registrations.",
        read: { decoder, node, origin, tenant in
            for item in decoder.items(node, at: origin, notAList: "must be a list of apps") {
                if let app = decoder.appEntry(item.node, at: item.origin) { tenant.apps.append(app) }
            }
        },
        print: { tenant in tenant.apps.isEmpty ? nil : .entries(tenant.apps.map(AppFields.table.printed)) })

    package static let managedIdentities = TenantField<Nested>(
        "managedIdentities", .list(.mapping(ManagedIdentityFields.table.schema)),
        "Azure managed identities of the tenant, served by the managed-identity endpoints.",
        read: { decoder, node, origin, tenant in
            for item in decoder.items(node, at: origin, notAList: "must be a list of managed identities") {
                if let entry = decoder.managedIdentityEntry(item.node, at: item.origin, tenantID: tenant.id.value) {
                    tenant.managedIdentities.append(entry)
                }
            }
        },
        print: { tenant in
            tenant.managedIdentities.isEmpty ? nil : .entries(tenant.managedIdentities.map(ManagedIdentityFields.table.printed))
        })

    package static let groups = TenantField<Nested>(
        "groups", .list(.mapping(GroupFields.table.schema)),
        "Directory groups (Graph's group objects); ids users list but nobody defines get a default group.",
        read: { decoder, node, origin, tenant in
            for item in decoder.items(node, at: origin, notAList: "must be a list of groups") {
                if let group = decoder.groupEntry(item.node, at: item.origin) { tenant.groups.append(group) }
            }
        },
        print: { tenant in tenant.groups.isEmpty ? nil : .entries(tenant.groups.map(GroupFields.table.printed)) })

    static let table = FieldTable(id, domains, name, cloud, regionSubScope, signIn, b2c, externalID, users, apps, groups, managedIdentities)
}

/// The keys of a tenant's `b2c:` mapping, in print order.
package enum B2CFields {
    package typealias B2CField<Value: FieldValue> = Field<B2CSettings, B2CSettings, Value>

    package static let policies = B2CField<[String]>(
        "policies", .list(.name), "User flows and custom policies, such as B2C_1_signupsignin.", required: true,
        read: { decoder, node, origin, settings in
            let listed = decoder.strings(node, at: origin)
            if listed.isEmpty && (node.isNull || node.sequenceCount == 0) {
                decoder.report(origin, "must list at least one policy")
            }
            let wellFormed = listed.filter { policy in
                guard !policy.value.isEmpty,
                      policy.value.unicodeScalars.allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit || $0 == "_" || $0 == "-" })
                else {
                    decoder.report(policy.origin, "must be a policy name such as B2C_1_signupsignin (letters, digits, _ and -)")
                    return false
                }
                return true
            }
            settings.policies = decoder.withoutRepeats(wellFormed, ignoringCase: true).map(\.value)
        },
        print: { .list($0.policies) })

    package static let policyClaim = B2CField<PolicyClaim>(
        "policyClaim", .choice(of: PolicyClaim.self), "Which claim carries the policy name (default tfp).",
        read: { decoder, node, origin, settings in
            if let claim: PolicyClaim = decoder.choice(node, at: origin) { settings.policyClaim = claim }
        },
        print: { .scalar($0.policyClaim.rawValue) })

    static let table = FieldTable(policies, policyClaim)
}
