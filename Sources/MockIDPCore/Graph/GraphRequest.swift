import MockIDPJOSE

/// A Microsoft Graph request as the provider needs it: the version and the path's segments after it
/// (percent-decoded), the query, the bearer token, the `ConsistencyLevel` header and the body.
package struct GraphRequest: Sendable {
    package var method: String
    /// `v1.0` or `beta`.
    package var version: String
    package var segments: [String]
    package var query: [(name: String, value: String)]
    package var bearerToken: String?
    /// `ConsistencyLevel: eventual`, which Graph's directory needs for `$count`.
    package var eventual: Bool
    package var body: [UInt8]

    package init(method: String, version: String, segments: [String], query: [(name: String, value: String)] = [],
                 bearerToken: String?, eventual: Bool = false, body: [UInt8] = []) {
        self.method = method
        self.version = version
        self.segments = segments
        self.query = query
        self.bearerToken = bearerToken
        self.eventual = eventual
        self.body = body
    }
}

/// What a Graph call answers.
package enum GraphResponse: Sendable, Equatable {
    /// A JSON body with status 200.
    case json(JSONValue)
    /// A media stream (a photo) of this content type.
    case media([UInt8], contentType: String)
    /// A plain-text count (`/$count`).
    case count(Int)
}

/// Who calls Graph: the token's tenant, its user (delegated) or app, and the permissions it holds.
package struct GraphCaller: Sendable {
    package var tenant: Tenant
    /// The signed-in user's object ID (delegated tokens), nil for app-only tokens.
    package var userObjectID: String?
    /// `scp` words or `roles`.
    package var permissions: Set<String>

    package var isDelegated: Bool { userObjectID != nil }
}

extension Cloud {
    /// Microsoft Graph's host names per cloud (Microsoft Learn, "National cloud deployments": the US Government
    /// L5 (DOD) cloud has its own host).
    package static let graphHosts: [(host: String, cloud: CloudName)] = [
        ("graph.microsoft.com", .public), ("graph.microsoft.us", .usgov), ("dod-graph.microsoft.us", .usgov),
        ("microsoftgraph.chinacloudapi.cn", .china), ("graph.microsoft.de", .germany),
    ]

    /// The cloud whose Graph host `host` is.
    package static func forGraphHost(_ host: String) -> Cloud? {
        graphHosts.first { $0.host == host.lowercased() }.map { Cloud.named($0.cloud) }
    }

    /// The audiences of Microsoft Graph access tokens that Graph and `/oidc/userinfo` take: its app ID, and its
    /// resource URI in every cloud (with or without the trailing slash a v1 resource may carry).
    static let graphAudiences: Set<String> = {
        var audiences: Set<String> = ["00000003-0000-0000-c000-000000000000"]
        for graph in Cloud.all.map(\.graphResource) + ["https://dod-graph.microsoft.us"] {
            audiences.insert(graph)
            audiences.insert(graph + "/")
        }
        return audiences
    }()

    /// The audiences Graph of this cloud accepts besides its app ID: its resource URIs, with or without the
    /// trailing slash a v1 `resource` may carry.
    var graphAudienceURLs: [String] {
        let hosts = Self.graphHosts.filter { $0.cloud == name }.map(\.host)
        return hosts.flatMap { ["https://\($0)", "https://\($0)/"] }
    }
}
