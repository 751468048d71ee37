/// The tenant segment of a request path, resolved: a tenant, or one of Entra's multi-tenant aliases.
enum Authority: Sendable, Equatable {
    case tenant(Tenant)
    case common
    case organizations
    case consumers

    /// Entra: the tenant GUID of personal Microsoft accounts.
    static let consumersTenantID = "9188040d-6c67-4c5b-b112-36a304b66dad"

    init?(segment: String, directory: Directory) {
        switch segment.lowercased() {
        case "common": self = .common
        case "organizations": self = .organizations
        case "consumers": self = .consumers
        default:
            guard let tenant = directory.tenant(segment) else { return nil }
            self = .tenant(tenant)
        }
    }

    /// The path segment Entra puts into endpoint URLs: the GUID for a tenant (even when asked by domain).
    var pathSegment: String {
        switch self {
        case .tenant(let t): t.id
        case .common: "common"
        case .organizations: "organizations"
        case .consumers: "consumers"
        }
    }

    /// The tenant ID in the issuer: `{tenantid}` for common and organizations.
    var issuerTenant: String {
        switch self {
        case .tenant(let t): t.id
        case .common, .organizations: "{tenantid}"
        case .consumers: Self.consumersTenantID
        }
    }

    var specificTenant: Tenant? { if case .tenant(let t) = self { t } else { nil } }
}
