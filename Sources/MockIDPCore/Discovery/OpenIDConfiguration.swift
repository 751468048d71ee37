import MockIDPJOSE

/// A tenant's OpenID configuration as Entra publishes it (docs/entra-behaviour.md, "Discovery documents"): one value
/// for both versions, each member named once, in `json`, in Entra's order. v2 and v1 differ in the members only one
/// of them has, and in where `userinfo_endpoint` stands.
struct OpenIDConfiguration {
    var version: ProtocolVersion
    var tokenEndpoint: String
    var jwksURI: String
    var responseTypes: [String]
    var scopes: [String]
    var issuer: String
    var authorizationEndpoint: String
    var deviceAuthorizationEndpoint: String
    var endSessionEndpoint: String
    var claims: [String]
    var userInfoEndpoint: String
    /// v1 only: OpenID Connect Session Management's OP iframe.
    var checkSessionIFrame: String?
    var kerberosEndpoint: String
    /// The tenant's region (`null` for common, organizations and consumers), and its sub-scope when it has one.
    var tenantRegionScope: String?
    var tenantRegionSubScope: String?
    var cloudInstanceName: String
    var cloudGraphHostName: String
    var msgraphHost: String
    var rbacURL: String

    static let tokenEndpointAuthMethods = ["client_secret_post", "private_key_jwt", "client_secret_basic"]

    var json: JSONValue {
        func strings(_ values: [String]) -> JSONValue { .array(values.map { .string($0) }) }
        var d = JSONObject()
        d["token_endpoint"] = .string(tokenEndpoint)
        d["token_endpoint_auth_methods_supported"] = strings(Self.tokenEndpointAuthMethods)
        d["jwks_uri"] = .string(jwksURI)
        d["response_modes_supported"] = ["query", "fragment", "form_post"]
        d["subject_types_supported"] = ["pairwise"]
        d["id_token_signing_alg_values_supported"] = ["RS256"]
        d["response_types_supported"] = strings(responseTypes)
        d["scopes_supported"] = strings(scopes)
        d["issuer"] = .string(issuer)
        switch version {
        case .v2:
            d["request_uri_parameter_supported"] = false
            d["userinfo_endpoint"] = .string(userInfoEndpoint)
        case .v1:
            d["microsoft_multi_refresh_token"] = true
        }
        d["authorization_endpoint"] = .string(authorizationEndpoint)
        d["device_authorization_endpoint"] = .string(deviceAuthorizationEndpoint)
        d["http_logout_supported"] = true
        d["frontchannel_logout_supported"] = true
        d["end_session_endpoint"] = .string(endSessionEndpoint)
        d["claims_supported"] = strings(claims)
        if version == .v1 {
            if let checkSessionIFrame { d["check_session_iframe"] = .string(checkSessionIFrame) }
            d["userinfo_endpoint"] = .string(userInfoEndpoint)
        }
        d["kerberos_endpoint"] = .string(kerberosEndpoint)
        d["tenant_region_scope"] = tenantRegionScope.map(JSONValue.string) ?? .null
        if let tenantRegionSubScope { d["tenant_region_sub_scope"] = .string(tenantRegionSubScope) }
        d["cloud_instance_name"] = .string(cloudInstanceName)
        d["cloud_graph_host_name"] = .string(cloudGraphHostName)
        d["msgraph_host"] = .string(msgraphHost)
        d["rbac_url"] = .string(rbacURL)
        return .object(d)
    }
}
