/// Changes to the served directory at run time (sign-up, password reset, the control API), and the way back to
/// the configuration the provider was started with.
extension IdentityProvider {
    /// Adds `user` to the tenant with this GUID or domain, replacing a user with the same username (compared
    /// without regard to case). Returns false when there is no such tenant.
    @discardableResult
    public func upsertUser(_ user: User, tenant: String) -> Bool {
        changeTenant(tenant) { t in
            if let i = t.users.firstIndex(where: { $0.username.lowercased() == user.username.lowercased() }) {
                t.users[i] = user
            } else {
                t.users.append(user)
            }
        }
    }

    /// Adds `app` to the tenant with this GUID or domain, replacing an app with the same client ID.
    /// Returns false when there is no such tenant.
    @discardableResult
    public func upsertApp(_ app: Application, tenant: String) -> Bool {
        changeTenant(tenant) { t in
            if let i = t.apps.firstIndex(where: { $0.clientID.lowercased() == app.clientID.lowercased() }) {
                t.apps[i] = app
            } else {
                t.apps.append(app)
            }
        }
    }

    /// Serves the configuration the provider was started with (or last given by `replaceConfiguration`) again:
    /// users added or changed at run time are gone.
    public func restoreLoadedConfiguration() {
        state.withLock {
            $0.directory = Directory($0.loadedConfiguration)
            $0.generation += 1
        }
    }

    private func changeTenant(_ idOrDomain: String, _ change: (inout Tenant) -> Void) -> Bool {
        state.withLock { s in
            guard let tenant = s.directory.tenant(idOrDomain),
                  let index = s.directory.configuration.tenants.firstIndex(where: { $0.id == tenant.id }) else { return false }
            var configuration = s.directory.configuration
            change(&configuration.tenants[index])
            s.directory = Directory(configuration)
            s.generation += 1
            return true
        }
    }
}
