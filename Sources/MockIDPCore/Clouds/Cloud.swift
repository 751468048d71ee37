/// The clouds a tenant can live in.
public enum CloudName: String, Sendable, CaseIterable {
    case `public`
    case usgov
    case china
    case germany
}

/// A Microsoft cloud as clients see it: its login hosts and the names its discovery documents carry.
/// Sources: reference/entra-protocol.md §1.1 "Sovereign clouds" and §2.1 (instance discovery metadata).
public struct Cloud: Sendable, Equatable {
    public var name: CloudName
    /// The host clients are told to use (`preferred_network`).
    public var preferredNetworkHost: String
    /// The host MSAL caches under (`preferred_cache`).
    public var preferredCacheHost: String
    /// Every login host of this cloud, the preferred one first.
    public var aliases: [String]
    /// The host in issuers of v2 tokens.
    public var issuerHost: String
    /// The host in issuers of v1 tokens (`https://sts.windows.net/{tid}/` in the public cloud).
    public var v1IssuerHost: String
    /// B2C login domain suffix, e.g. `b2clogin.com`.
    public var b2cHostSuffix: String
    public var cloudInstanceName: String
    public var cloudGraphHostName: String
    public var msgraphHost: String
    /// Microsoft Graph's resource URI in this cloud.
    public var graphResource: String { "https://\(msgraphHost)" }

    /// The cloud named `name`.
    public static func named(_ name: CloudName) -> Cloud {
        switch name {
        case .public: .publicCloud
        case .usgov: .usGovernment
        case .china: .china
        case .germany: .germany
        }
    }

    public static let publicCloud = Cloud(
        name: .public, preferredNetworkHost: "login.microsoftonline.com", preferredCacheHost: "login.windows.net",
        aliases: ["login.microsoftonline.com", "login.windows.net", "login.microsoft.com", "sts.windows.net"],
        issuerHost: "login.microsoftonline.com", v1IssuerHost: "sts.windows.net", b2cHostSuffix: "b2clogin.com",
        cloudInstanceName: "microsoftonline.com", cloudGraphHostName: "graph.windows.net", msgraphHost: "graph.microsoft.com")

    // Entra: MSAL keeps login-us.microsoftonline.com as its own metadata entry; it belongs to the US Government cloud.
    public static let usGovernment = Cloud(
        name: .usgov, preferredNetworkHost: "login.microsoftonline.us", preferredCacheHost: "login.microsoftonline.us",
        aliases: ["login.microsoftonline.us", "login.usgovcloudapi.net", "login-us.microsoftonline.com"],
        issuerHost: "login.microsoftonline.us", v1IssuerHost: "sts.windows.net", b2cHostSuffix: "b2clogin.us",
        cloudInstanceName: "microsoftonline.us", cloudGraphHostName: "graph.windows.net", msgraphHost: "graph.microsoft.us")

    public static let china = Cloud(
        name: .china, preferredNetworkHost: "login.partner.microsoftonline.cn", preferredCacheHost: "login.partner.microsoftonline.cn",
        aliases: ["login.partner.microsoftonline.cn", "login.chinacloudapi.cn"],
        issuerHost: "login.partner.microsoftonline.cn", v1IssuerHost: "sts.chinacloudapi.cn", b2cHostSuffix: "b2clogin.cn",
        cloudInstanceName: "partner.microsoftonline.cn", cloudGraphHostName: "graph.chinacloudapi.cn",
        msgraphHost: "microsoftgraph.chinacloudapi.cn")

    public static let germany = Cloud(
        name: .germany, preferredNetworkHost: "login.microsoftonline.de", preferredCacheHost: "login.microsoftonline.de",
        aliases: ["login.microsoftonline.de"],
        issuerHost: "login.microsoftonline.de", v1IssuerHost: "sts.microsoftonline.de", b2cHostSuffix: "b2clogin.de",
        cloudInstanceName: "microsoftonline.de", cloudGraphHostName: "graph.cloudapi.de", msgraphHost: "graph.microsoft.de")

    /// Every cloud, public first.
    public static let all: [Cloud] = [.publicCloud, .usGovernment, .china, .germany]

    /// The cloud whose login or B2C host `host` is (port ignored), if any.
    public static func forHost(_ host: String) -> Cloud? {
        let h = host.lowercased()
        for cloud in all where cloud.aliases.contains(h) || h.hasSuffix("." + cloud.b2cHostSuffix) { return cloud }
        return nil
    }
}
