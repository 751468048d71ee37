import MockIDPCore

extension ConfigurationOverlay {
    /// Applies a later file over this one; the rules are `ConfigurationLoader.merge(_:)`'s.
    ///
    /// A later file's entries match only entries of earlier files, and each at most once: two users with one
    /// username in the same file stay two, so that validation reports them.
    mutating func merge(_ later: ConfigurationOverlay) {
        if let value = later.tokens.lifetime { tokens.lifetime = value }
        if let value = later.tokens.refreshLifetime { tokens.refreshLifetime = value }
        if let value = later.tokens.codeLifetime { tokens.codeLifetime = value }

        var knownHosts = Set(hosts.map(\.value))
        for host in later.hosts where knownHosts.insert(host.value).inserted { hosts.append(host) }

        var earlierIssuers = FirstIndex(trustedIssuers.map(\.issuer.value))
        for issuer in later.trustedIssuers {
            if let index = earlierIssuers.claim(issuer.issuer.value) { trustedIssuers[index] = issuer } else { trustedIssuers.append(issuer) }
        }

        // Into none (the first file): the later tenants as they are, without copying each.
        if tenants.isEmpty {
            tenants = later.tenants
            return
        }
        var earlier = FirstIndex(tenants.map { $0.id.value })
        for tenant in later.tenants {
            if let index = earlier.claim(tenant.id.value) {
                tenants[index].merge(tenant)
            } else {
                tenants.append(tenant)
            }
        }
    }

    /// The configuration this overlay describes, defaults filled in.
    var configuration: IdentityProviderConfiguration {
        var overlay = self
        return overlay.takeConfiguration()
    }

    /// The configuration this overlay describes, defaults filled in; the tenants are moved out of the overlay,
    /// each freed once its tenant is built, so that a large overlay is not held whole beside what is built from it.
    mutating func takeConfiguration() -> IdentityProviderConfiguration {
        var settings = TokenSettings()
        if let value = tokens.lifetime { settings.lifetime = value.value }
        if let value = tokens.refreshLifetime { settings.refreshLifetime = value.value }
        if let value = tokens.codeLifetime { settings.codeLifetime = value.value }
        // Many tenants are built on several cores; each moves out only its own overlay, leaving an empty one.
        let empty = TenantOverlay(origin: Origin.nowhere, id: Sourced(value: "", origin: Origin.nowhere))
        let built = tenants.withUnsafeMutableBufferPointer { overlays in
            Parallel.compactMap(overlays.count, minimumChunk: 256) { range, put in
                for index in range {
                    let overlay = (overlays.baseAddress! + index).move()
                    (overlays.baseAddress! + index).initialize(to: empty)
                    put(index, Self.tenant(overlay))
                }
            }.elements
        }
        tenants = []
        return IdentityProviderConfiguration(tokens: settings, hosts: hosts.map(\.value), tenants: built,
                                             trustedIssuers: trustedIssuers.compactMap(\.trustedIssuer))
    }

    /// A tenant of the configuration. (Closures, not key paths: a key path applied to an entry copies it whole.)
    private static func tenant(_ tenant: TenantOverlay) -> Tenant {
        var domains = tenant.domains.map { $0.value }
        let externalID = tenant.externalID.map { Self.decided($0.value, id: tenant.id.value, domains: &domains) }
        return Tenant(id: tenant.id.value, domains: domains, name: tenant.name?.value,
               cloud: tenant.cloud?.value ?? .public, signIn: tenant.signIn?.value ?? SignInSettings(), b2c: tenant.b2c?.value,
               users: tenant.users.map { $0.user }, apps: tenant.apps.map { $0.app },
               managedIdentities: tenant.managedIdentities.map { $0.identity }, groups: tenant.groups.map { $0.group },
               regionSubScope: tenant.regionSubScope?.value, externalID: externalID)
    }

    /// An External ID tenant's settings with its subdomain decided (by default the primary domain's first label),
    /// and its `{subdomain}.onmicrosoft.com` among its domains, where authorities name it.
    private static func decided(_ settings: ExternalIDSettings, id: String, domains: inout [String]) -> ExternalIDSettings {
        var settings = settings
        if settings.subdomain.isEmpty {
            settings.subdomain = domains.first.flatMap { $0.split(separator: ".").first }.map { String($0).lowercased() } ?? id
        }
        if !domains.contains(where: { $0.lowercased() == settings.initialDomain }) { domains.append(settings.initialDomain) }
        return settings
    }

    /// An overlay of a built configuration, for merging built configurations: having no origin in a file,
    /// a value equal to its default counts as not set.
    init(_ configuration: IdentityProviderConfiguration) {
        let nowhere = Origin.nowhere
        func sourced<Value: Equatable>(_ value: Value, unless standard: Value) -> Sourced<Value>? {
            value == standard ? nil : Sourced(value: value, origin: nowhere)
        }
        let standard = TokenSettings()
        tokens = TokensOverlay(lifetime: sourced(configuration.tokens.lifetime, unless: standard.lifetime),
                               refreshLifetime: sourced(configuration.tokens.refreshLifetime, unless: standard.refreshLifetime),
                               codeLifetime: sourced(configuration.tokens.codeLifetime, unless: standard.codeLifetime))
        hosts = configuration.hosts.map { Sourced(value: $0, origin: nowhere) }
        trustedIssuers = configuration.trustedIssuers.map {
            TrustedIssuerEntry(issuer: Sourced(value: $0.issuer, origin: nowhere), keys: $0.keys, origin: nowhere)
        }
        tenants = configuration.tenants.map { tenant in
            TenantOverlay(
                origin: nowhere, id: Sourced(value: tenant.id, origin: nowhere),
                domains: tenant.domains.map { Sourced(value: $0, origin: nowhere) },
                name: tenant.name.map { Sourced(value: $0, origin: nowhere) },
                cloud: sourced(tenant.cloud, unless: .public),
                regionSubScope: tenant.regionSubScope.map { Sourced(value: $0, origin: nowhere) },
                signIn: sourced(tenant.signIn, unless: SignInSettings()),
                b2c: tenant.b2c.map { Sourced(value: $0, origin: nowhere) },
                externalID: tenant.externalID.map { Sourced(value: $0, origin: nowhere) },
                users: tenant.users.map { UserEntry(user: $0, origin: nowhere, usernameOrigin: nowhere, objectIDOrigin: nowhere) },
                apps: tenant.apps.map { app in
                    var entry = ApplicationEntry(app: app, origin: nowhere, clientIDOrigin: nowhere)
                    entry.federatedCredentialIssuerOrigins = app.federatedCredentials.map { _ in nowhere }
                    return entry
                },
                managedIdentities: tenant.managedIdentities.map {
                    ManagedIdentityEntry(identity: $0, origin: nowhere, clientIDOrigin: nowhere, objectIDOrigin: nowhere,
                                         resourceIDOrigin: nowhere)
                },
                groups: tenant.groups.map { GroupEntry(group: $0, origin: nowhere, idOrigin: nowhere) })
        }
    }
}

extension TenantOverlay {
    /// A later file's declaration of the same tenant: scalar fields it sets win, domains add up, users
    /// (by username, without regard to case), apps and managed identities (by client ID) and groups (by id) are
    /// replaced whole or added.
    mutating func merge(_ later: TenantOverlay) {
        if let value = later.name { name = value }
        if let value = later.cloud { cloud = value }
        if let value = later.regionSubScope { regionSubScope = value }
        if let value = later.signIn { signIn = value }
        if let value = later.b2c { b2c = value }
        if let value = later.externalID { externalID = value }

        var knownDomains = Set(domains.map { $0.value.lowercased() })
        for domain in later.domains where knownDomains.insert(domain.value.lowercased()).inserted { domains.append(domain) }

        var earlierUsers = FirstIndex(users.map { $0.user.username.lowercased() })
        for user in later.users {
            if let index = earlierUsers.claim(user.user.username.lowercased()) { users[index] = user } else { users.append(user) }
        }
        var earlierApps = FirstIndex(apps.map { $0.app.clientID.lowercased() })
        for app in later.apps {
            if let index = earlierApps.claim(app.app.clientID.lowercased()) { apps[index] = app } else { apps.append(app) }
        }
        var earlierIdentities = FirstIndex(managedIdentities.map { $0.identity.clientID.lowercased() })
        for identity in later.managedIdentities {
            if let index = earlierIdentities.claim(identity.identity.clientID.lowercased()) {
                managedIdentities[index] = identity
            } else {
                managedIdentities.append(identity)
            }
        }
        var earlierGroups = FirstIndex(groups.map(\.group.id))
        for group in later.groups {
            if let index = earlierGroups.claim(group.group.id) { groups[index] = group } else { groups.append(group) }
        }
    }
}

/// Where each key first occurs among the entries of earlier files; each can be claimed by one later entry.
private struct FirstIndex {
    private var indices: [String: Int] = [:]

    init(_ keys: [String]) {
        for (index, key) in keys.enumerated() where indices[key] == nil { indices[key] = index }
    }

    /// The index of the earlier entry with `key`, unless none or already claimed.
    mutating func claim(_ key: String) -> Int? { indices.removeValue(forKey: key) }
}
