import Synchronization

/// The directory being served (tenants, users, apps, signing keys) and the configuration it was loaded from, under
/// their own locks. The directory is immutable and swapped whole when something changes it (sign-up, password
/// reset, the control API); a request takes it once, as its scope's snapshot, and reads everything from that value.
package final class ServedDirectory: Sendable {
    private let current: Mutex<Directory>
    /// The configuration as loaded: what `restoreLoadedConfiguration` goes back to.
    private let loaded: Mutex<IdentityProviderConfiguration>

    init(_ configuration: IdentityProviderConfiguration, signingKeys: [SigningKey]) {
        current = Mutex(Directory(configuration, signingKeys: signingKeys, generation: 0))
        loaded = Mutex(configuration)
    }

    /// The directory as it is now: the configuration, its indexes and the signing keys, one consistent value.
    /// Takes the lock once; call it once per request and pass the value on.
    package func snapshot() -> Directory { current.withLock { $0 } }

    /// Replaces the served directory with `change(current)` (nil: no change), whose generation is one more, and
    /// returns what `change` returned besides. The new directory is built outside the lock, so requests never wait
    /// for an index rebuild; a change that raced another is built again on the newer directory, so none is lost.
    func change<T>(_ change: (Directory) -> (Directory, T)?) -> T? {
        while true {
            let base = snapshot()
            guard let (next, result) = change(base) else { return nil }
            let swapped = current.withLock { (directory: inout Directory) -> Bool in
                guard directory.generation == base.generation else { return false }
                directory = next.withGeneration(base.generation + 1)
                return true
            }
            if swapped { return result }
        }
    }

    /// Serves `configuration` from now on, and goes back to it on reset; refresh tokens of users and apps that no
    /// longer exist stop working.
    package func replaceConfiguration(_ configuration: IdentityProviderConfiguration) {
        loaded.withLock { $0 = configuration }
        _ = change { d in (Directory(configuration, signingKeys: d.signingKeys, generation: d.generation), ()) }
    }

    /// Serves the configuration the provider was started with (or last given by `replaceConfiguration`) again:
    /// users added or changed at run time are gone.
    package func restoreLoadedConfiguration() {
        let configuration = loaded.withLock { $0 }
        _ = change { d in (Directory(configuration, signingKeys: d.signingKeys, generation: d.generation), ()) }
    }

    // MARK: users, apps, identities and groups

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

    /// Adds `group` to the tenant with this GUID or domain, replacing a group with the same id.
    /// Returns false when there is no such tenant.
    @discardableResult
    package func upsertGroup(_ group: Group, tenant: String) -> Bool {
        upsert(group, into: \.groups, tenant: tenant) { $0.id == group.id }
    }

    /// Replaces the first entry of the tenant's `list` that `isSame`, or appends `item`.
    private func upsert<Item>(_ item: Item, into list: WritableKeyPath<Tenant, [Item]>, tenant: String,
                              isSame: (Item) -> Bool) -> Bool {
        change { d in
            guard let found = d.tenant(tenant),
                  let index = d.configuration.tenants.firstIndex(where: { $0.id == found.id }) else { return nil }
            var configuration = d.configuration
            if let i = configuration.tenants[index][keyPath: list].firstIndex(where: isSame) {
                configuration.tenants[index][keyPath: list][i] = item
            } else {
                configuration.tenants[index][keyPath: list].append(item)
            }
            return (Directory(configuration, signingKeys: d.signingKeys, generation: d.generation), true)
        } ?? false
    }

    // MARK: signing keys

    /// Signs with `key` from now on; the keys used before stay published until `retireSigningKeys`.
    package func rotateSigningKey(to key: SigningKey) {
        _ = change { d in (d.withSigningKeys([key] + d.signingKeys), ()) }
    }

    /// Removes every key but the one that signs from the key sets; returns the key IDs removed.
    @discardableResult
    package func retireSigningKeys() -> [String] {
        change { d in (d.withSigningKeys([d.activeKey]), d.signingKeys.dropFirst().map(\.keyID)) } ?? []
    }
}
