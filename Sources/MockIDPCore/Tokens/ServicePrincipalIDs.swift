import Synchronization

/// The object IDs of apps' service principals, derived once per app and tenant: an app-only token carries its
/// service principal as `oid` and `sub`, and deriving it (SHA-256 and formatting) cost more than the rest of the
/// claims. Holds one entry per app and tenant that was issued a token, so it is bounded by the directory's size.
final class ServicePrincipalIDs: Sendable {
    private struct Key: Hashable {
        let appID: String
        let tenantID: String
    }

    private let ids = Mutex<[Key: String]>([:])

    /// The service principal of `appID` in `tenantID`: `TokenFactory.servicePrincipalID(appID:tenantID:)`.
    func id(appID: String, tenantID: String) -> String {
        let key = Key(appID: appID, tenantID: tenantID)
        if let id = ids.withLock({ $0[key] }) { return id }
        let id = TokenFactory.servicePrincipalID(appID: appID, tenantID: tenantID)
        ids.withLock { $0[key] = id }
        return id
    }
}
