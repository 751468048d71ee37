/// The endpoints every B2C policy serves (docs/entra-behaviour.md, "B2C metadata").
package enum B2CEndpoint: String, Sendable, CaseIterable {
    /// `v2.0/.well-known/openid-configuration`, `discovery/v2.0/keys`, `oauth2/v2.0/authorize`, `…/token`, `…/logout`.
    case discovery, keys, authorize, token, logout

    /// The plain Entra endpoint the `?p={policy}` form rides on.
    package var queryFormEndpoint: Endpoint {
        switch self {
        case .discovery: .v2Discovery
        case .keys: .v2Keys
        case .authorize: .v2Authorize
        case .token: .v2Token
        case .logout: .v2Logout
        }
    }
}

/// The B2C dialect's path templates, beside `EndpointTable`: each endpoint under `/{tenant}/{policy}/`, `/tfp/{tenant}/{policy}/`
/// and `/te/{tenant}/{policy}/`; the `?p=` form uses `EndpointTable`'s v2 paths. Routes and discovery both read it.
package enum B2CEndpointTable {
    /// The tail of each endpoint after the policy segment.
    static let tails: [(endpoint: B2CEndpoint, tail: String)] = [
        (.discovery, "/v2.0/.well-known/openid-configuration"),
        (.keys, "/discovery/v2.0/keys"),
        (.authorize, "/oauth2/v2.0/authorize"),
        (.token, "/oauth2/v2.0/token"),
        (.logout, "/oauth2/v2.0/logout"),
    ]

    /// Prefixes before `{tenant}/{policy}`: the path form B2C documents, MSAL.NET's and MSAL ObjC's `tfp`, and `te`.
    static let prefixes = ["", "/tfp", "/te"]

    /// The authority a client is configured with for `policy`, in MSAL's `tfp` form: `{baseURL}/tfp/{tenant}/{policy}`.
    package static func tfpAuthority(baseURL: String, tenant: String, policy: String) -> String {
        "\(baseURL)/tfp/\(tenant)/\(policy)"
    }

    /// Every path template, in the order routes are registered.
    package static let paths: [(endpoint: B2CEndpoint, template: String)] = prefixes.flatMap { prefix in
        tails.map { ($0.endpoint, prefix + "/{tenant}/{policy}" + $0.tail) }
    }

    /// The URL B2C publishes for `endpoint` of `authority`: the tenant as the client named it and the policy in
    /// lower case in the path, or, for the `?p=` form, the plain path with `?p={policy}`.
    package static func url(_ endpoint: B2CEndpoint, baseURL: String, authority: B2CAuthority) -> String {
        switch authority.form {
        case .path:
            guard let tail = tails.first(where: { $0.endpoint == endpoint })?.tail else {
                preconditionFailure("every B2CEndpoint has a row in B2CEndpointTable.tails")
            }
            return "\(baseURL)/\(authority.tenantSegment)/\(authority.policy.pathName)\(tail)"
        case .query:
            return EndpointTable.url(endpoint.queryFormEndpoint, baseURL: baseURL, tenant: authority.tenantSegment)
                + "?p=" + authority.policy.pathName
        }
    }
}
