import MockIDPCore

/// The keys of a tenant's `managedIdentities:` entry (also the body of the control API's
/// `POST …/managedIdentities`), in print order.
package enum ManagedIdentityFields {
    package typealias ManagedIdentityField<Value: FieldValue> = Field<ManagedIdentityEntry, ManagedIdentity, Value>

    package static let clientID = ManagedIdentityField<String>(
        "clientId", .guid, "The identity's client (application) ID.", required: true,
        read: { decoder, node, origin, entry in entry.identity.clientID = decoder.guid(node, at: origin, required: true) ?? "" },
        print: { .text($0.clientID) })

    package static let objectID = ManagedIdentityField<String>(
        "objectId", .guid, "The object (principal) ID; by default a stable GUID derived from the tenant and the client ID.",
        read: { decoder, node, origin, entry in
            guard let oid = decoder.guid(node, at: origin) else { return }
            entry.identity.objectID = oid
            entry.objectIDOrigin = origin
        },
        print: { .text($0.objectID) })

    package static let resourceID = ManagedIdentityField<String>(
        "resourceId", .text,
        "The Azure resource ID (the token's xms_mirid); by default one derived from the tenant and the client ID.",
        read: { decoder, node, origin, entry in
            guard let id = decoder.optionalString(node, at: origin) else { return }
            guard ManagedIdentity.isResourceID(id) else {
                decoder.report(origin, "must be an Azure resource ID such as /subscriptions/{id}/resourceGroups/{group}/providers/"
                    + "Microsoft.ManagedIdentity/userAssignedIdentities/{name} (no spaces, ? or #)")
                return
            }
            entry.identity.resourceID = id
            entry.resourceIDOrigin = origin
        },
        print: { .text($0.resourceID) })

    package static let systemAssigned = ManagedIdentityField<Bool>.flag(
        "systemAssigned", "The identity used when a request names none (at most one per server).", \.systemAssigned)

    static let table = FieldTable(clientID, objectID, resourceID, systemAssigned)
}

/// One entry of `managedIdentities:`, complete (a later file replaces an identity whole), with the origins
/// validation needs.
package struct ManagedIdentityEntry {
    var identity: ManagedIdentity
    /// The identity's mapping.
    var origin: Origin
    var clientIDOrigin: Origin
    /// The `objectId` value, or the client ID when the object ID is derived.
    var objectIDOrigin: Origin
    /// The `resourceId` value, or the client ID when the resource ID is derived.
    var resourceIDOrigin: Origin
}

extension ManagedIdentityEntry: ModelEntry {
    static var modelPath: FieldPath<ManagedIdentityEntry, ManagedIdentity> { \.identity }
}

extension ConfigurationDecoder {
    /// One `managedIdentities:` entry of the tenant `tenantID` (also what the control API decodes); nil without a
    /// valid client ID. Object and resource IDs left out are derived.
    mutating func managedIdentityEntry(_ node: YAMLNode, at origin: Origin, tenantID: String) -> ManagedIdentityEntry? {
        guard let fields = fields(of: node, at: origin, table: ManagedIdentityFields.table) else { return nil }
        let clientIDOrigin = fields.origin(of: ManagedIdentityFields.clientID)
        var entry = ManagedIdentityEntry(identity: ManagedIdentity(clientID: "", objectID: "", resourceID: ""), origin: fields.origin,
                                         clientIDOrigin: clientIDOrigin, objectIDOrigin: clientIDOrigin, resourceIDOrigin: clientIDOrigin)
        read(fields, ManagedIdentityFields.table, into: &entry)
        let clientID = entry.identity.clientID
        guard !clientID.isEmpty else { return nil }
        if entry.identity.objectID.isEmpty {
            entry.identity.objectID = ManagedIdentity.derivedObjectID(tenantID: tenantID, clientID: clientID)
        }
        if entry.identity.resourceID.isEmpty {
            entry.identity.resourceID = ManagedIdentity.derivedResourceID(tenantID: tenantID, clientID: clientID,
                                                                          systemAssigned: entry.identity.systemAssigned)
        }
        return entry
    }
}
