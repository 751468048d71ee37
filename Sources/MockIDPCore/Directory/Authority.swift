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

    /// The tenant a user grant or sign-in runs in: this tenant, or for common/organizations the tenant of the
    /// UPN's domain (consumers: the consumers tenant).
    func tenant(forUser username: String, in directory: Directory) throws(OAuthError) -> Tenant {
        switch self {
        case .tenant(let t): return t
        case .common, .organizations:
            guard let t = directory.tenant(forUsername: username) else {
                throw .unknownUser(username, tenant: pathSegment)
            }
            return t
        case .consumers:
            guard let t = directory.tenant(Self.consumersTenantID) else {
                throw .unknownUser(username, tenant: Self.consumersTenantID)
            }
            return t
        }
    }
}

extension Directory {
    /// The app an authorize (or device code) request names: registered in the path's tenant (or multi-tenant
    /// elsewhere); for common/organizations/consumers, registered anywhere.
    func authorizationClient(_ clientID: String, authority: Authority) -> Application? {
        if let tenant = authority.specificTenant { return app(clientID, in: tenant) }
        for tenant in configuration.tenants {
            if let app = tenant.apps.first(where: { $0.clientID == clientID.lowercased() }) { return app }
        }
        return nil
    }

    /// The tenant that registers `client`.
    func homeTenant(of client: Application) -> Tenant? {
        configuration.tenants.first { $0.apps.contains { $0.clientID == client.clientID } }
    }
}
