import MockIDPCore
import MockIDPText

/// The rules that relate values to each other, checked on the merged configuration: unique ids, names
/// and URIs, credentials that fit the client type, redirect URIs as Entra accepts them, API permissions
/// that name a real API and what it exposes. Each problem names the file and line its value came from.
struct ConfigurationValidator {
    // Entra: redirect URIs may be at most 256 characters long.
    /// Redirect URIs longer than this are refused.
    static let maximumRedirectURILength = 256
    /// Microsoft Graph's application (client) ID, the same in every tenant.
    static let graphAppID = "00000003-0000-0000-c000-000000000000"

    let overlay: ConfigurationOverlay
    private var problems: [ConfigurationProblem] = []

    /// Every problem of a merged configuration.
    static func problems(in overlay: ConfigurationOverlay) -> [ConfigurationProblem] {
        var validator = ConfigurationValidator(overlay: overlay)
        // The rules across tenants, and the directories the rules of each tenant look names up in, read the overlay
        // only: for many tenants, the two are done side by side.
        enum Part {
            case acrossTenants([ConfigurationProblem])
            case directories(APIDirectory, tenantIDs: Set<String>)
        }
        let parts = Parallel.map(2, minimumChunk: overlay.tenants.count >= 256 ? 1 : 2) { jobs in
            jobs.map { job -> Part in
                guard job == 0 else { return .directories(APIDirectory(overlay), tenantIDs: Set(overlay.tenants.map { $0.id.value })) }
                var across = ConfigurationValidator(overlay: overlay)
                across.checkTenantIDs()
                across.checkDomains()
                return .acrossTenants(across.problems)
            }
        }.joined()
        var directories: (apis: APIDirectory, tenantIDs: Set<String>)?
        for part in parts {
            switch part {
            case .acrossTenants(let problems): validator.problems += problems
            case .directories(let apis, let tenantIDs): directories = (apis, tenantIDs)
            }
        }
        guard let (apis, tenantIDs) = directories else { preconditionFailure("both parts run") }
        let trustedIssuers = Set(overlay.trustedIssuers.map(\.issuer.value))
        // Each tenant's own rules read only the (shared, unchanged) overlay: many tenants are checked on several cores.
        let perTenant = Parallel.map(overlay.tenants.count, minimumChunk: 256) { range in
            var part = ConfigurationValidator(overlay: overlay)
            for tenantIndex in range {
                // One copy, a constant the checks borrow: a value read through the array, or through a pointer into
                // it, was copied again for each check, since a check mutates the validator, which holds the overlay.
                let tenant = overlay.tenants[tenantIndex]
                part.checkUsers(of: tenant)
                part.checkApps(of: tenant)
                part.checkGroups(of: tenant)
                part.checkRegionSubScope(of: tenant)
                part.checkExternalID(of: tenant)
                part.checkAPIPermissions(of: tenant, at: tenantIndex, apis: apis)
                part.checkFederatedIssuers(of: tenant, trusted: trustedIssuers, tenantIDs: tenantIDs)
            }
            return part.problems
        }
        for problems in perTenant { validator.problems += problems }
        validator.checkManagedIdentities()
        return validator.problems
    }

    private init(overlay: ConfigurationOverlay) {
        self.overlay = overlay
    }

    mutating func report(_ origin: Origin, _ reason: String) {
        problems.append(origin.problem(reason))
    }

    private mutating func checkTenantIDs() {
        var seen: [String: Origin] = [:]
        seen.reserveCapacity(overlay.tenants.count)
        // By index, here and below: a copy of a whole tenant counts a reference for each of its values.
        for index in overlay.tenants.indices {
            let id = overlay.tenants[index].id
            if let first = seen[id.value] {
                report(id.origin, "tenant \(id.value) is already declared at \(first.reference(from: id.origin))")
            } else {
                seen[id.value] = id.origin
            }
        }
    }

    /// A domain names one tenant only: requests for it must know which.
    private mutating func checkDomains() {
        var owners: [String: (tenant: Int, origin: Origin)] = [:]
        owners.reserveCapacity(overlay.tenants.count)
        for index in overlay.tenants.indices {
            for domain in overlay.tenants[index].domains {
                let key = domain.value.lowercasedIfNeeded()
                if let owner = owners[key] {
                    guard owner.tenant != index else { continue }
                    let other = overlay.tenants[owner.tenant]
                    report(domain.origin, "domain '\(domain.value)' already belongs to tenant \(Self.name(of: other)) (\(owner.origin.reference(from: domain.origin)))")
                } else {
                    owners[key] = (index, domain.origin)
                }
            }
        }
    }

    /// An External ID tenant is no B2C tenant, and lives in the public cloud: ciamlogin.com has no sovereign twin.
    private mutating func checkExternalID(of tenant: TenantOverlay) {
        guard let externalID = tenant.externalID else { return }
        if tenant.b2c != nil {
            report(externalID.origin, "a tenant is either an Azure AD B2C tenant (b2c) or an External ID tenant (externalId), not both")
        }
        if let cloud = tenant.cloud, cloud.value != .public {
            report(cloud.origin, "an External ID tenant lives in the public cloud (ciamlogin.com has no \(cloud.value.rawValue) twin)")
        }
    }

    /// A group id names one group of the tenant.
    private mutating func checkGroups(of tenant: TenantOverlay) {
        var seen: [String: Origin] = [:]
        for entry in tenant.groups {
            if let first = seen[entry.group.id] {
                report(entry.idOrigin, "group \(entry.group.id) is already declared at \(first.reference(from: entry.idOrigin))")
            } else {
                seen[entry.group.id] = entry.idOrigin
            }
        }
    }

    private mutating func checkUsers(of tenant: TenantOverlay) {
        var usernames: [String: Origin] = [:]
        /// Object ID → the user's index.
        var objectIDs: [String: Int] = [:]
        for index in tenant.users.indices {
            let entry = tenant.users[index]
            let key = entry.user.username.lowercasedIfNeeded()
            if let first = usernames[key] {
                report(entry.usernameOrigin, "user '\(entry.user.username)' is already declared at \(first.reference(from: entry.usernameOrigin))")
                continue
            }
            usernames[key] = entry.usernameOrigin
            if let other = objectIDs[entry.user.objectID].map({ tenant.users[$0] }) {
                report(entry.objectIDOrigin, "object id \(entry.user.objectID) is already the oid of '\(other.user.username)' (\(other.objectIDOrigin.reference(from: entry.objectIDOrigin)))")
            } else {
                objectIDs[entry.user.objectID] = index
            }
            if let home = entry.user.homeTenantID, home == tenant.id.value, let origin = entry.homeTenantOrigin {
                report(origin, "a guest's home tenant must be another tenant than the one the user is in")
            }
        }
    }

    private mutating func checkApps(of tenant: TenantOverlay) {
        var clientIDs: [String: Origin] = [:]
        /// Identifier URI → the app (its index) and where the URI is.
        var identifierURIs: [String: (app: Int, origin: Origin)] = [:]
        for index in tenant.apps.indices {
            checkApp(tenant.apps[index], at: index, of: tenant, clientIDs: &clientIDs, identifierURIs: &identifierURIs)
        }
    }

    private mutating func checkApp(_ entry: ApplicationEntry, at index: Int, of tenant: TenantOverlay, clientIDs: inout [String: Origin],
                                   identifierURIs: inout [String: (app: Int, origin: Origin)]) {
        if let first = clientIDs[entry.app.clientID] {
            report(entry.clientIDOrigin, "app \(entry.app.clientID) is already declared at \(first.reference(from: entry.clientIDOrigin))")
            return
        }
        clientIDs[entry.app.clientID] = entry.clientIDOrigin
        checkCredentials(of: entry)
        for (uri, origin) in zip(entry.app.redirectURIs, entry.redirectURIOrigins) {
            checkRedirectURI(uri, at: origin, type: entry.app.type)
        }
        for (uri, origin) in zip(entry.app.identifierURIs, entry.identifierURIOrigins) {
            guard let parts = URIReference(uri), !parts.hasFragment else {
                report(origin, "must be an absolute URI such as api://contoso-api, without a fragment (#)")
                continue
            }
            let key = uri.lowercasedIfNeeded()
            if let other = identifierURIs[key] {
                report(origin, "'\(uri)' is already an identifier URI of \(tenant.apps[other.app].app.displayName) (\(other.origin.reference(from: origin)))")
            } else {
                identifierURIs[key] = (index, origin)
            }
        }
    }

    // Entra: public clients (mobile, desktop, single-page) cannot keep a credential; confidential ones must have one.
    /// A credential where the client type allows one, and one where it needs one.
    private mutating func checkCredentials(of entry: ApplicationEntry) {
        let type = entry.app.type
        // Entra: the family of client IDs is made of public (mobile and desktop) clients.
        if type != .public, let origin = entry.fociOrigin {
            report(origin, "only public clients can be in the family of client IDs (foci); this app is \(type.rawValue)")
        }
        if type == .confidential {
            if entry.secretOrigin == nil && entry.certificatesOrigin == nil && entry.federatedCredentialsOrigin == nil,
               let origin = entry.typeOrigin {
                report(origin, "a confidential client needs a secret, a certificate or a federated credential")
            }
            return
        }
        if let origin = entry.secretOrigin { report(origin, "a \(type.rawValue) client cannot hold a secret") }
        if let origin = entry.certificatesOrigin { report(origin, "a \(type.rawValue) client cannot hold certificates") }
        if let origin = entry.federatedCredentialsOrigin {
            report(origin, "a \(type.rawValue) client cannot hold federated credentials (they are client credentials)")
        }
    }

    // Entra: redirect URIs by platform: web and SPA need https (or http on a loopback host); custom schemes
    // (`msauth.com.contoso.app://auth`, `myapp://callback`) belong to mobile and desktop apps; no fragments.
    /// A redirect URI the client's platform allows.
    private mutating func checkRedirectURI(_ uri: String, at origin: Origin, type: ClientType) {
        guard uri.count <= Self.maximumRedirectURILength else {
            report(origin, "is longer than \(Self.maximumRedirectURILength) characters")
            return
        }
        guard let parts = URIReference(uri) else {
            report(origin, "must be an absolute URI with a scheme, such as https://app.contoso.com/callback")
            return
        }
        if parts.hasFragment {
            report(origin, "cannot contain a fragment (#)")
            return
        }
        // Entra refuses them at registration; a response sent there would run script in this server's origin.
        if RedirectURI.hasDangerousScheme(uri) {
            report(origin, "'\(uri)' has a scheme a browser runs or reads locally (javascript:, data:, vbscript:, file:); "
                + "use https, http on loopback, or the app's own scheme")
            return
        }
        switch parts.scheme {
        case "http", "https":
            guard let host = parts.host, !host.isEmpty else {
                report(origin, "must name a host")
                return
            }
            if parts.scheme == "http" && !parts.isLoopbackHTTP {
                report(origin, "may use http only on localhost, 127.0.0.1 or [::1]; use https")
            }
        default:
            switch type {
            case .public:
                break
            case .spa:
                report(origin, "a spa client needs https (or http on localhost, 127.0.0.1 or [::1])")
            case .confidential:
                report(origin, "a custom scheme is for public clients (mobile and desktop apps); a confidential client needs https")
            }
        }
    }

    /// Each API an app names must be Microsoft Graph, an app of its tenant, or a multi-tenant app of another
    /// tenant; each value one of that API's scopes or app roles.
    private mutating func checkAPIPermissions(of tenant: TenantOverlay, at tenantIndex: Int, apis: APIDirectory) {
        for index in tenant.apps.indices { checkAPIPermissions(of: tenant.apps[index], in: tenantIndex, apis: apis) }
    }

    private mutating func checkAPIPermissions(of entry: ApplicationEntry, in tenantIndex: Int, apis: APIDirectory) {
        for (permission, origins) in zip(entry.app.apiPermissions, entry.permissionOrigins) {
            let key = APIDirectory.key(permission.resource)
            if APIDirectory.graphNames.contains(key) {
                for (value, origin) in zip(permission.values, origins.values) where !Self.isGraphPermission(value) {
                    report(origin, "'\(value)' is not a Microsoft Graph permission (such as User.Read or Mail.ReadWrite.All)")
                }
                continue
            }
            guard let api = apis.resolve(key, from: tenantIndex) else {
                if let elsewhere = apis.anyTenant(key) {
                    report(origins.resource, "names \(elsewhere.app.displayName) of tenant \(Self.name(of: overlay.tenants[elsewhere.tenant])), which is not multiTenant")
                } else {
                    report(origins.resource, "no app of this tenant (nor a multiTenant app of another) has this client id or identifier URI")
                }
                continue
            }
            let exposed = Set(api.scopes + api.appRoles)
            for (value, origin) in zip(permission.values, origins.values) where !exposed.contains(value) {
                report(origin, "'\(value)' is neither a scope nor an app role of \(api.displayName)")
            }
        }
    }

    /// Each federated credential's issuer must be trusted: a `trustedIssuers` entry (which says where its keys
    /// are), or the v2 issuer of one of this server's tenants (checked against the server's own keys).
    private mutating func checkFederatedIssuers(of tenant: TenantOverlay, trusted: Set<String>, tenantIDs: Set<String>) {
        for index in tenant.apps.indices where !tenant.apps[index].app.federatedCredentials.isEmpty {
            let issuers = zip(tenant.apps[index].app.federatedCredentials, tenant.apps[index].federatedCredentialIssuerOrigins)
            for (credential, origin) in issuers {
                if trusted.contains(credential.issuer) { continue }
                if let tenantID = TrustedIssuer.ownTenantID(ofIssuer: credential.issuer), tenantIDs.contains(tenantID) { continue }
                report(origin, "issuer '\(credential.issuer)' is not trusted: add it to trustedIssuers (with jwks or jwksUri), "
                    + "or name a tenant of this server by its v2 issuer, https://<host>/<tenant id>/v2.0")
            }
        }
    }

    /// Graph permission names: dot-separated words, `User.Read`, `Mail.ReadWrite.All`.
    static func isGraphPermission(_ value: String) -> Bool {
        let words = value.split(separator: ".", omittingEmptySubsequences: false)
        return words.count >= 2 && words.allSatisfy { !$0.isEmpty && $0.unicodeScalars.allSatisfy(\.isASCIILetter) }
    }

    private static func name(of tenant: TenantOverlay) -> String {
        tenant.name.map { "\($0.value) (\(tenant.id.value))" } ?? tenant.id.value
    }
}

/// The apps that may be named as APIs, by client ID and identifier URI (compared without regard to case).
private struct APIDirectory {
    /// Microsoft Graph in every cloud, and its app ID.
    static let graphNames: Set<String> = Set(Cloud.all.map { key($0.graphResource) } + [ConfigurationValidator.graphAppID])

    /// Where an app is: its tenant's index and its own among the tenant's apps.
    struct Place {
        var tenant: Int32
        var app: Int32
    }

    /// The tenants the places point into (shared with the overlay, not copied).
    private let tenants: [TenantOverlay]
    /// The first app of any tenant by each key: also each tenant's own app by a key no earlier tenant uses. (One
    /// table for all tenants: a table per tenant cost 10,000 small tables for as many tenants.)
    private var firstPlace: [String: Place] = [:]
    /// A tenant's first app by a key an earlier tenant uses too (rare: identifier URIs reused across tenants).
    private var laterPlace: [TenantKey: Place] = [:]
    /// Multi-tenant apps of every tenant: key → app (the first declared wins).
    private var multiTenant: [String: Place] = [:]

    private struct TenantKey: Hashable {
        var tenant: Int32
        var key: String
    }

    init(_ overlay: ConfigurationOverlay) {
        tenants = overlay.tenants
        let apps = overlay.tenants.reduce(0) { $0 + $1.apps.count }
        firstPlace.reserveCapacity(2 * apps)
        for tenantIndex in tenants.indices {
            for appIndex in tenants[tenantIndex].apps.indices {
                // The fields are read where they are: a copy of an `Application` counts a reference for each of them.
                let place = Place(tenant: Int32(tenantIndex), app: Int32(appIndex))
                let isMultiTenant = tenants[tenantIndex].apps[appIndex].app.multiTenant
                func add(_ name: String) {
                    let key = Self.key(name)
                    if let first = firstPlace[key] {
                        let own = TenantKey(tenant: place.tenant, key: key)
                        if first.tenant != place.tenant && laterPlace[own] == nil { laterPlace[own] = place }
                    } else {
                        firstPlace[key] = place
                    }
                    if isMultiTenant && multiTenant[key] == nil { multiTenant[key] = place }
                }
                add(tenants[tenantIndex].apps[appIndex].app.clientID)
                for uri in tenants[tenantIndex].apps[appIndex].app.identifierURIs { add(uri) }
            }
        }
    }

    private func app(at place: Place) -> Application { tenants[Int(place.tenant)].apps[Int(place.app)].app }

    /// The API an app of tenant `tenantIndex` may name by `key`: its own tenant's app by that key, else a
    /// multi-tenant app's.
    func resolve(_ key: String, from tenantIndex: Int) -> Application? {
        let own: Place? = if let first = firstPlace[key], first.tenant == Int32(tenantIndex) {
            first
        } else {
            laterPlace[TenantKey(tenant: Int32(tenantIndex), key: key)]
        }
        return (own ?? multiTenant[key]).map(app(at:))
    }

    /// Any app of any tenant named by `key`, and its tenant's index, to explain a refusal.
    func anyTenant(_ key: String) -> (app: Application, tenant: Int)? {
        firstPlace[key].map { (app(at: $0), Int($0.tenant)) }
    }

    /// How names compare: without regard to case or a trailing slash.
    static func key(_ name: String) -> String {
        var key = name.lowercasedIfNeeded()
        if key.utf8.last == UInt8(ascii: "/") { key.removeLast() }
        return key
    }
}
