import MockIDPText

/// The clouds a tenant can live in.
public enum CloudName: String, Sendable, CaseIterable {
    case `public`
    case usgov
    case china
    case germany
}

/// A Microsoft cloud as clients see it: its login hosts and the names its discovery documents carry.
/// Sources: docs/sovereign-clouds.md, "Sovereign clouds", and docs/entra-behaviour.md, "Clouds and instance discovery".
///
/// A class, and only the four below exist: a request passes its cloud along many times (in its host scope, to the
/// token factory, to scope checks), and each copy of a struct of twelve strings retained every one of them, on
/// strings both workers share.
package final class Cloud: Sendable, Equatable {
    /// The name configuration uses (`cloud:`).
    package let name: CloudName
    /// The host clients are told to use (`preferred_network`).
    package let preferredNetworkHost: String
    /// The host MSAL caches under (`preferred_cache`).
    package let preferredCacheHost: String
    /// Every login host of this cloud, the preferred one first.
    package let aliases: [String]
    /// The host in issuers of v2 tokens, whichever alias the request came to.
    package let issuerHost: String
    /// The host in issuers of v1 tokens (`https://sts.windows.net/{tid}/` in the public cloud).
    package let v1IssuerHost: String
    /// B2C login domain suffix, e.g. `b2clogin.com`.
    package let b2cHostSuffix: String
    /// `cloud_instance_name` in discovery documents and user-realm answers.
    package let cloudInstanceName: String
    /// `cloud_graph_host_name`: Azure AD Graph's host in this cloud.
    package let cloudGraphHostName: String
    /// `msgraph_host`: Microsoft Graph's host in this cloud.
    package let msgraphHost: String
    /// `rbac_url` in discovery documents.
    package let rbacURL: String
    /// `tenant_region_scope` of this cloud's tenants.
    package let regionScope: String
    /// Microsoft Graph's resource URI in this cloud.
    package let graphResource: String

    private init(name: CloudName, preferredNetworkHost: String, preferredCacheHost: String, aliases: [String],
                 issuerHost: String, v1IssuerHost: String, b2cHostSuffix: String, cloudInstanceName: String,
                 cloudGraphHostName: String, msgraphHost: String, rbacURL: String, regionScope: String) {
        self.name = name
        self.preferredNetworkHost = preferredNetworkHost
        self.preferredCacheHost = preferredCacheHost
        self.aliases = aliases
        self.issuerHost = issuerHost
        self.v1IssuerHost = v1IssuerHost
        self.b2cHostSuffix = b2cHostSuffix
        self.cloudInstanceName = cloudInstanceName
        self.cloudGraphHostName = cloudGraphHostName
        self.msgraphHost = msgraphHost
        self.rbacURL = rbacURL
        self.regionScope = regionScope
        graphResource = "https://\(msgraphHost)"
    }

    /// One cloud per name.
    package static func == (a: Cloud, b: Cloud) -> Bool { a.name == b.name }

    /// The cloud named `name`.
    package static func named(_ name: CloudName) -> Cloud {
        switch name {
        case .public: .publicCloud
        case .usgov: .usGovernment
        case .china: .china
        case .germany: .germany
        }
    }

    /// The public (worldwide) cloud.
    package static let publicCloud = Cloud(
        name: .public, preferredNetworkHost: "login.microsoftonline.com", preferredCacheHost: "login.windows.net",
        aliases: ["login.microsoftonline.com", "login.windows.net", "login.microsoft.com", "sts.windows.net"],
        issuerHost: "login.microsoftonline.com", v1IssuerHost: "sts.windows.net", b2cHostSuffix: "b2clogin.com",
        cloudInstanceName: "microsoftonline.com", cloudGraphHostName: "graph.windows.net", msgraphHost: "graph.microsoft.com",
        rbacURL: "https://pas.windows.net", regionScope: "WW")

    // Entra: instance discovery keeps login-us.microsoftonline.com as its own metadata entry; it belongs to the US
    // Government cloud all the same.
    /// The US Government cloud (GCC High, DoD).
    package static let usGovernment = Cloud(
        name: .usgov, preferredNetworkHost: "login.microsoftonline.us", preferredCacheHost: "login.microsoftonline.us",
        aliases: ["login.microsoftonline.us", "login.usgovcloudapi.net", "login-us.microsoftonline.com"],
        issuerHost: "login.microsoftonline.us", v1IssuerHost: "sts.windows.net", b2cHostSuffix: "b2clogin.us",
        cloudInstanceName: "microsoftonline.us", cloudGraphHostName: "graph.windows.net", msgraphHost: "graph.microsoft.us",
        rbacURL: "https://pasff.usgovcloudapi.net", regionScope: "USGov")

    // Entra: MSAL.js's captured China metadata keeps endpoints on login.chinacloudapi.cn with the issuer on
    // login.partner.microsoftonline.cn (docs/entra-behaviour.md, "Clouds and instance discovery").
    /// Microsoft Azure operated by 21Vianet.
    package static let china = Cloud(
        name: .china, preferredNetworkHost: "login.partner.microsoftonline.cn", preferredCacheHost: "login.partner.microsoftonline.cn",
        aliases: ["login.partner.microsoftonline.cn", "login.chinacloudapi.cn"],
        issuerHost: "login.partner.microsoftonline.cn", v1IssuerHost: "sts.chinacloudapi.cn", b2cHostSuffix: "b2clogin.cn",
        cloudInstanceName: "partner.microsoftonline.cn", cloudGraphHostName: "graph.chinacloudapi.cn",
        msgraphHost: "microsoftgraph.chinacloudapi.cn", rbacURL: "https://pas.chinacloudapi.cn", regionScope: "AS")

    /// Microsoft Cloud Deutschland (closed in 2021; clients still know it).
    package static let germany = Cloud(
        name: .germany, preferredNetworkHost: "login.microsoftonline.de", preferredCacheHost: "login.microsoftonline.de",
        aliases: ["login.microsoftonline.de"],
        issuerHost: "login.microsoftonline.de", v1IssuerHost: "sts.microsoftonline.de", b2cHostSuffix: "b2clogin.de",
        cloudInstanceName: "microsoftonline.de", cloudGraphHostName: "graph.cloudapi.de", msgraphHost: "graph.microsoft.de",
        rbacURL: "https://pas.cloudapi.de", regionScope: "EU")

    /// Every cloud, public first.
    package static let all: [Cloud] = [.publicCloud, .usGovernment, .china, .germany]

    /// Entra's instance-discovery `metadata`, entry for entry and in Entra's order
    /// (docs/entra-behaviour.md, "Clouds and instance discovery").
    package static let instanceMetadata: [(preferredNetwork: String, preferredCache: String, aliases: [String])] = [
        ("login.microsoftonline.com", "login.windows.net",
         ["login.microsoftonline.com", "login.windows.net", "login.microsoft.com", "sts.windows.net"]),
        ("login.partner.microsoftonline.cn", "login.partner.microsoftonline.cn", ["login.partner.microsoftonline.cn", "login.chinacloudapi.cn"]),
        ("login.microsoftonline.de", "login.microsoftonline.de", ["login.microsoftonline.de"]),
        ("login.microsoftonline.us", "login.microsoftonline.us", ["login.microsoftonline.us", "login.usgovcloudapi.net"]),
        ("login-us.microsoftonline.com", "login-us.microsoftonline.com", ["login-us.microsoftonline.com"]),
    ]

    /// The cloud whose login or B2C host `host` is (port ignored), if any.
    package static func forHost(_ host: String) -> Cloud? {
        switch HostScope(host: host) {
        case .login(let cloud), .b2c(let cloud): cloud
        case .externalID: .publicCloud
        case .neutral: nil
        }
    }

    /// The B2C login host of a B2C tenant in this cloud: `{first label of the primary domain}.b2clogin.…`.
    package func b2cHost(of tenant: Tenant) -> String {
        let label = tenant.primaryDomain.split(separator: ".").first.map(String.init) ?? tenant.id
        return "\(label.lowercased()).\(b2cHostSuffix)"
    }
}

/// What the host name a request came to says about the tenants it may reach: a cloud's login host serves that
/// cloud's tenants only, a `*.b2clogin.*` host that cloud's B2C tenants, a `*.ciamlogin.com` host External ID
/// tenants; any other name (localhost, an address,
/// a configured host) serves every tenant, each as its own cloud.
package enum HostScope: Sendable, Equatable {
    /// Not a cloud's name: every tenant is served, each answering as its own cloud.
    case neutral
    /// A login host of `cloud` (e.g. `login.microsoftonline.us`): only that cloud's tenants.
    case login(Cloud)
    /// A B2C host of `cloud` (e.g. `contoso.b2clogin.com`): only that cloud's B2C tenants.
    case b2c(Cloud)
    /// An External ID host (`{subdomain}.ciamlogin.com`, `{tid}.ciamlogin.com`): only External ID tenants.
    case externalID

    /// The scope of `host` (a host name without port; any case).
    package init(host: String) {
        let h = host.lowercasedIfNeeded()
        if let cloud = Self.loginHosts[h] { self = .login(cloud); return }
        for (suffix, cloud) in Self.b2cHostSuffixes where Self.hasSuffix(h, suffix) {
            self = .b2c(cloud)
            return
        }
        if Self.hasSuffix(h, Self.externalIDHostSuffix) { self = .externalID; return }
        self = .neutral
    }

    /// Every cloud's login host names (aliases included) → the cloud; asked on every request, so built once.
    private static let loginHosts: [String: Cloud] = {
        var hosts: [String: Cloud] = [:]
        for cloud in Cloud.all { for alias in cloud.aliases where hosts[alias] == nil { hosts[alias] = cloud } }
        return hosts
    }()

    /// Whether `host` is a name under `suffix` (which starts with a dot), compared by byte: `String.hasSuffix`
    /// compares by `Character` (the host is ASCII: `HostHeader` lets nothing else in).
    private static func hasSuffix(_ host: String, _ suffix: String) -> Bool {
        host.utf8.count > suffix.utf8.count && host.utf8.suffix(suffix.utf8.count).elementsEqual(suffix.utf8)
    }

    /// `.ciamlogin.com`, with the dot.
    private static let externalIDHostSuffix = "." + ExternalIDSettings.hostSuffix

    /// `.b2clogin.com` and its sovereign twins, with the dot, in `Cloud.all`'s order.
    private static let b2cHostSuffixes: [(suffix: String, cloud: Cloud)] = Cloud.all.map { ("." + $0.b2cHostSuffix, $0) }

    /// Whether a request to this host may reach `tenant`.
    // Entra: each cloud is its own directory; a tenant asked for on another cloud's host is not found (AADSTS90002).
    package func serves(_ tenant: Tenant) -> Bool {
        switch self {
        case .neutral: true
        case .login(let cloud): tenant.cloud == cloud.name
        case .b2c(let cloud): tenant.cloud == cloud.name && tenant.b2c != nil
        case .externalID: tenant.externalID != nil
        }
    }

    /// Why `tenant` is not served here, in words for test authors.
    func refusal(of tenant: Tenant, host: String) -> String {
        switch self {
        case .neutral: "the tenant is served on this host"
        case .login(let cloud):
            "tenant '\(tenant.primaryDomain)' lives in the \(tenant.cloud.rawValue) cloud, and \(host) serves only tenants of the \(cloud.name.rawValue) cloud"
        case .b2c(let cloud):
            tenant.b2c == nil
                ? "tenant '\(tenant.primaryDomain)' is not an Azure AD B2C tenant, and \(host) serves only B2C tenants"
                : "tenant '\(tenant.primaryDomain)' lives in the \(tenant.cloud.rawValue) cloud, and \(host) serves only B2C tenants of the \(cloud.name.rawValue) cloud"
        case .externalID:
            "tenant '\(tenant.primaryDomain)' is not a Microsoft Entra External ID tenant, and \(host) serves only External ID tenants"
        }
    }
}

extension IdentityProviderConfiguration {
    /// Every host name the configuration serves beyond loopback and the listen address: the configured `hosts`,
    /// the login hosts of every cloud a tenant lives in, the `*.b2clogin.*` host of each B2C tenant, and the
    /// ciamlogin hosts and custom domains of each External ID tenant. These go
    /// into the TLS certificate, so clients that reach the server by a real cloud name trust it.
    package var servedHostNames: [String] {
        var names: [String] = []
        func add(_ name: String) {
            let n = name.lowercased()
            if !n.isEmpty, !names.contains(n) { names.append(n) }
        }
        hosts.forEach(add)
        for tenant in tenants {
            let cloud = Cloud.named(tenant.cloud)
            cloud.aliases.forEach(add)
            if tenant.b2c != nil { add(cloud.b2cHost(of: tenant)) }
            if let externalID = tenant.externalID {
                externalID.ciamloginHosts(tenantID: tenant.id).forEach(add)
                externalID.customDomains.forEach(add)
            }
        }
        return names
    }
}
