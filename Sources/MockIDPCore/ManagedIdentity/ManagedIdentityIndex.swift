/// Every managed identity of the configuration, server-wide (a managed-identity endpoint names no tenant): by
/// client ID, by object ID and by resource ID, each compared without regard to case, and the system-assigned one.
struct ManagedIdentityIndex: Sendable {
    /// Where an identity is: its tenant's index and its own among the tenant's identities.
    struct Place: Sendable, Equatable {
        var tenant: Int
        var identity: Int
    }

    private var byClientID: [String: Place] = [:]
    private var byObjectID: [String: Place] = [:]
    private var byResourceID: [String: Place] = [:]
    /// The identity used when a request names none.
    private(set) var systemAssigned: Place?

    init(_ tenants: [Tenant]) {
        for (t, tenant) in tenants.enumerated() {
            for (i, identity) in tenant.managedIdentities.enumerated() {
                let place = Place(tenant: t, identity: i)
                // The first declared wins; validation refuses duplicates in configuration files.
                if byClientID[identity.clientID.lowercased()] == nil { byClientID[identity.clientID.lowercased()] = place }
                if byObjectID[identity.objectID.lowercased()] == nil { byObjectID[identity.objectID.lowercased()] = place }
                if byResourceID[identity.resourceID.lowercased()] == nil { byResourceID[identity.resourceID.lowercased()] = place }
                if identity.systemAssigned && systemAssigned == nil { systemAssigned = place }
            }
        }
    }

    /// The identity `selector` names, or the system-assigned one when it names none.
    func find(_ selector: ManagedIdentitySelector) -> Place? {
        switch selector {
        case .systemAssigned: systemAssigned
        case .clientID(let id): byClientID[id.lowercased()]
        case .objectID(let id): byObjectID[id.lowercased()]
        case .resourceID(let id): byResourceID[id.lowercased()]
        }
    }
}

/// How a request names the managed identity it wants a token for.
package enum ManagedIdentitySelector: Sendable, Equatable {
    /// No identity named: the system-assigned one.
    case systemAssigned
    /// `client_id`.
    case clientID(String)
    /// `object_id` (IMDS, App Service) or `principal_id` (App Service).
    case objectID(String)
    /// `msi_res_id` (IMDS) or `mi_res_id` (App Service).
    case resourceID(String)

    /// The selector in words, for errors and the request log.
    var description: String {
        switch self {
        case .systemAssigned: "the system-assigned identity"
        case .clientID(let id): "client id \(id)"
        case .objectID(let id): "object id \(id)"
        case .resourceID(let id): "resource id \(id)"
        }
    }
}

extension Directory {
    /// The managed identity `selector` names and its tenant, or nil.
    func managedIdentity(_ selector: ManagedIdentitySelector) -> (identity: ManagedIdentity, tenant: Tenant)? {
        guard let place = managedIdentities.find(selector) else { return nil }
        let tenant = configuration.tenants[place.tenant]
        return (tenant.managedIdentities[place.identity], tenant)
    }
}
