/// Changes to the served directory at run time (sign-up, password reset, the control API), and the way back to
/// the configuration the provider was started with.
extension IdentityProvider {
    /// Adds `user` to the tenant with this GUID or domain, replacing a user with the same username (compared
    /// without regard to case). Returns false when there is no such tenant.
    @discardableResult
    package func upsertUser(_ user: User, tenant: String) -> Bool {
        upsert(user, into: \.users, tenant: tenant) { $0.username.lowercased() == user.username.lowercased() }
    }

    /// Adds `app` to the tenant with this GUID or domain, replacing an app with the same client ID.
    /// Returns false when there is no such tenant.
    @discardableResult
    package func upsertApp(_ app: Application, tenant: String) -> Bool {
        upsert(app, into: \.apps, tenant: tenant) { $0.clientID.lowercased() == app.clientID.lowercased() }
    }

    /// Adds `identity` to the tenant with this GUID or domain, replacing an identity with the same client ID.
    /// Returns false when there is no such tenant.
    @discardableResult
    package func upsertManagedIdentity(_ identity: ManagedIdentity, tenant: String) -> Bool {
        upsert(identity, into: \.managedIdentities, tenant: tenant) { $0.clientID.lowercased() == identity.clientID.lowercased() }
    }

    /// Replaces the first entry of the tenant's `list` that `isSame`, or appends `item`.
    private func upsert<Item>(_ item: Item, into list: WritableKeyPath<Tenant, [Item]>, tenant: String,
                              isSame: (Item) -> Bool) -> Bool {
        changeTenant(tenant) { t in
            if let i = t[keyPath: list].firstIndex(where: isSame) {
                t[keyPath: list][i] = item
            } else {
                t[keyPath: list].append(item)
            }
        }
    }

    /// Adds `group` to the tenant with this GUID or domain, replacing a group with the same id.
    /// Returns false when there is no such tenant.
    @discardableResult
    package func upsertGroup(_ group: Group, tenant: String) -> Bool {
        changeTenant(tenant) { t in
            if let i = t.groups.firstIndex(where: { $0.id == group.id }) { t.groups[i] = group } else { t.groups.append(group) }
        }
    }

    /// Serves the configuration the provider was started with (or last given by `replaceConfiguration`) again:
    /// users added or changed at run time are gone.
    package func restoreLoadedConfiguration() {
        let loaded = loadedConfiguration.withLock { $0 }
        _ = changeDirectory { d in (Directory(loaded, signingKeys: d.signingKeys, generation: d.generation), ()) }
    }

    private func changeTenant(_ idOrDomain: String, _ change: (inout Tenant) -> Void) -> Bool {
        changeDirectory { d in
            guard let tenant = d.tenant(idOrDomain),
                  let index = d.configuration.tenants.firstIndex(where: { $0.id == tenant.id }) else { return nil }
            var configuration = d.configuration
            change(&configuration.tenants[index])
            return (Directory(configuration, signingKeys: d.signingKeys, generation: d.generation), true)
        } ?? false
    }
}
