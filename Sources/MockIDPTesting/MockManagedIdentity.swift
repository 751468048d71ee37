import MockIDPConfiguration
import MockIDPJOSE

/// An Azure managed identity for `MockIdentityProvider.addManagedIdentity(_:tenant:)`: the keys of a
/// `managedIdentities:` entry in the YAML configuration. Fields left nil are not sent, so the server derives them
/// (a stable object ID and resource ID from tenant and client ID).
///
/// Its tokens come from the managed-identity endpoints (`managedIdentityEndpoint(_:)`): app-only access tokens
/// with `appid`/`azp` = `clientID`, `oid` = `sub` = `objectID` and `xms_mirid` = `resourceID`.
public struct MockManagedIdentity: Sendable {
    /// `clientId`, a GUID.
    public var clientID: String
    /// `objectId`, a GUID; nil lets the server derive one.
    public var objectID: String?
    /// `resourceId`, an Azure resource ID (`/subscriptions/…`); nil lets the server derive one.
    public var resourceID: String?
    /// `systemAssigned`: the identity a request that names none gets (at most one per server).
    public var systemAssigned: Bool?

    /// A managed identity with the given fields.
    public init(clientID: String, objectID: String? = nil, resourceID: String? = nil, systemAssigned: Bool? = nil) {
        self.clientID = clientID
        self.objectID = objectID
        self.resourceID = resourceID
        self.systemAssigned = systemAssigned
    }

    /// The JSON body of the control call, keyed as in the configuration file (the keys are `ManagedIdentityFields`').
    public var json: JSONValue {
        var body = FieldBody()
        body.set(ManagedIdentityFields.clientID, clientID)
        body.set(ManagedIdentityFields.objectID, objectID)
        body.set(ManagedIdentityFields.resourceID, resourceID)
        body.set(ManagedIdentityFields.systemAssigned, systemAssigned)
        return .object(body.object)
    }
}
