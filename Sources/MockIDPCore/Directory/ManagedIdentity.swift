import MockIDPText

/// An Azure managed identity of a tenant: the service principal a VM, App Service or container gets tokens as
/// through the instance metadata service (`/metadata/identity/oauth2/token`) or the App Service endpoint
/// (`/msi/token`). Its tokens are app-only, with `appid`/`azp` = `clientID`, `oid` = `sub` = `objectID` and
/// `xms_mirid` = `resourceID`.
public struct ManagedIdentity: Sendable, Equatable {
    /// The client (application) ID, lower-case GUID.
    public var clientID: String
    /// The object (principal) ID of its service principal, lower-case GUID.
    public var objectID: String
    /// Its Azure resource ID (`/subscriptions/…/providers/Microsoft.ManagedIdentity/userAssignedIdentities/…`).
    public var resourceID: String
    /// True for the one identity the endpoints use when a request names none (at most one per server).
    public var systemAssigned: Bool

    /// A managed identity; `objectID` and `resourceID` are usually the derived defaults when none is configured.
    public init(clientID: String, objectID: String, resourceID: String, systemAssigned: Bool = false) {
        self.clientID = clientID
        self.objectID = objectID
        self.resourceID = resourceID
        self.systemAssigned = systemAssigned
    }

    /// A stable object ID for an identity that has none configured, derived from tenant and client ID.
    public static func derivedObjectID(tenantID: String, clientID: String) -> String {
        GUID.derived(from: "managed-identity:\(tenantID.lowercasedIfNeeded()):\(clientID.lowercasedIfNeeded())")
    }

    /// A stable resource ID for an identity that has none configured: a user-assigned identity's ARM ID, or, for a
    /// system-assigned one, the ID of the virtual machine it belongs to, in a subscription derived from the tenant.
    public static func derivedResourceID(tenantID: String, clientID: String, systemAssigned: Bool) -> String {
        let subscription = GUID.derived(from: "subscription:\(tenantID.lowercased())")
        let provider = systemAssigned ? "Microsoft.Compute/virtualMachines" : "Microsoft.ManagedIdentity/userAssignedIdentities"
        return "/subscriptions/\(subscription)/resourcegroups/mockidp/providers/\(provider)/\(clientID.lowercased())"
    }

    /// Whether `text` has the shape of an Azure resource ID: `/subscriptions/{id}/…`, printable, without spaces.
    public static func isResourceID(_ text: String) -> Bool {
        text.lowercased().hasPrefix("/subscriptions/") && text.utf8.count <= 1024
            && text.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
    }
}
