import Synchronization

/// The consents users gave apps (`consentRequired`), under their own lock; never part of the directory snapshot.
package final class Consents: Sendable {
    private let store: Mutex<ConsentStore>

    init(capacity: Int) { store = Mutex(ConsentStore(capacity: capacity)) }

    /// Those of `permissions` that `user` has not consented to for `client` (none when the app needs no consent).
    func missing(_ permissions: [DelegatedPermission], client: Application, user: User, tenant: Tenant) -> [DelegatedPermission] {
        guard client.consentRequired else { return [] }
        return store.withLock { store in
            permissions.filter { !store.holds($0, tenantID: tenant.id, userObjectID: user.objectID, clientID: client.clientID) }
        }
    }

    /// `user` accepted the consent page: the permissions are granted to `client` from now on.
    package func grant(_ permissions: [DelegatedPermission], client: Application, user: User, tenant: Tenant) {
        store.withLock {
            $0.grant(permissions, tenantID: tenant.id, userObjectID: user.objectID, username: user.username, clientID: client.clientID)
        }
    }

    /// Every consent given, for the inspector and the control API.
    package var all: [ConsentGrant] { store.withLock { $0.all } }

    /// Revokes the consents of `username` (any user when nil) for `clientID` (any app when nil); returns how many
    /// grants went.
    @discardableResult
    package func revoke(username: String? = nil, clientID: String? = nil) -> Int {
        store.withLock { store in
            store.revoke { grant in
                (username.map { grant.username.lowercased() == $0.lowercased() } ?? true)
                    && (clientID.map { grant.clientID == $0.lowercased() } ?? true)
            }
        }
    }

    /// Forgets every consent.
    func removeAll() { store.withLock { $0.removeAll() } }
}
