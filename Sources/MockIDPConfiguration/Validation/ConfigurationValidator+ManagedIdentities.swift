import MockIDPCore

extension ConfigurationValidator {
    /// Managed identities are found server-wide (a managed-identity endpoint names no tenant), so their client,
    /// object and resource IDs are unique across tenants, and at most one is the system-assigned identity a request
    /// that names none gets.
    mutating func checkManagedIdentities() {
        var clientIDs: [String: Origin] = [:]
        var objectIDs: [String: Origin] = [:]
        var resourceIDs: [String: Origin] = [:]
        var systemAssigned: (clientID: String, origin: Origin)?
        for tenant in overlay.tenants {
            for entry in tenant.managedIdentities {
                let identity = entry.identity
                if let first = clientIDs[identity.clientID] {
                    report(entry.clientIDOrigin, "managed identity \(identity.clientID) is already declared at \(first.reference(from: entry.clientIDOrigin))")
                    continue
                }
                clientIDs[identity.clientID] = entry.clientIDOrigin
                if let first = objectIDs[identity.objectID] {
                    report(entry.objectIDOrigin, "object id \(identity.objectID) is already the objectId of another managed identity (\(first.reference(from: entry.objectIDOrigin)))")
                } else {
                    objectIDs[identity.objectID] = entry.objectIDOrigin
                }
                let resourceKey = identity.resourceID.lowercased()
                if let first = resourceIDs[resourceKey] {
                    report(entry.resourceIDOrigin, "resource id \(identity.resourceID) is already the resourceId of another managed identity (\(first.reference(from: entry.resourceIDOrigin)))")
                } else {
                    resourceIDs[resourceKey] = entry.resourceIDOrigin
                }
                if identity.systemAssigned {
                    if let first = systemAssigned {
                        report(entry.origin, "only one managed identity per server can be systemAssigned; \(first.clientID) already is (\(first.origin.reference(from: entry.origin)))")
                    } else {
                        systemAssigned = (identity.clientID, entry.origin)
                    }
                }
            }
        }
    }
}
