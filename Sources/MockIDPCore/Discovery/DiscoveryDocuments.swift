import MockIDPJOSE
import MockIDPText

/// What the discovery endpoints answer: OpenID configurations, key sets, instance discovery and user realm, each read
/// from the request's scope alone. B2C's documents are in `B2C/B2CDiscoveryDocuments.swift`.
package struct DiscoveryDocuments {
    /// The OpenID configuration of a tenant, shaped and ordered as Entra's
    /// (docs/entra-behaviour.md, "Discovery documents").
    /// `appID` (`?appid=` on the discovery URL) is kept in `jwks_uri`, as Entra does so that an app with its own
    /// signing keys finds them (Microsoft Learn, "Access tokens", Validate the signature); this server signs every
    /// app's tokens with the same keys, so that key set is the tenant's.
    package func openIDConfiguration(tenant segment: String, version: ProtocolVersion, context: RequestScope,
                                    appID: String? = nil) -> Result<JSONValue, OAuthError> {
        let directory = context.directory
        guard let authority = Authority(segment: segment, directory: directory) else {
            return .failure(.tenantNotFound(segment, forDiscovery: true))
        }
        let cloud = context.cloud(for: authority.specificTenant)
        let base = context.baseURL
        let t = authority.pathSegment
        func url(_ e: Endpoint) -> String { EndpointTable.url(e, baseURL: base, tenant: t) }
        let v2 = version == .v2
        let shared = ["sub", "iss", "cloud_instance_name", "cloud_instance_host_name", "cloud_graph_host_name", "msgraph_host",
                      "aud", "exp", "iat", "auth_time", "acr"]
        // Graph's paths answer on every host of this server: a cloud's login host names that cloud's Graph host (which
        // reaches this server where the login host does), any other host names itself, `host[:port]` without a
        // scheme as Entra writes `msgraph_host`.
        let ownHost = context.baseURL.split(separator: "://", maxSplits: 1).last.map(String.init) ?? context.host
        var document = OpenIDConfiguration(
            version: version,
            tokenEndpoint: url(v2 ? .v2Token : .v1Token),
            jwksURI: v2 ? url(.v2Keys) : EndpointTable.url(.v1Keys, baseURL: base, tenant: "common"),
            responseTypes: v2 ? ["code", "id_token", "code id_token", "id_token token"]
                : ["code", "id_token", "code id_token", "token id_token", "token"],
            scopes: v2 ? ["openid", "profile", "email", "offline_access"] : ["openid"],
            issuer: v2 ? "\(context.issuerBaseURL(for: authority.specificTenant))/\(authority.issuerTenant)/v2.0" : "https://\(cloud.v1IssuerHost)/\(authority.issuerTenant)/",
            authorizationEndpoint: url(v2 ? .v2Authorize : .v1Authorize),
            deviceAuthorizationEndpoint: url(v2 ? .v2DeviceCode : .v1DeviceCode),
            endSessionEndpoint: url(v2 ? .v2Logout : .v1Logout),
            claims: v2 ? shared + ["nonce", "preferred_username", "name", "tid", "ver", "at_hash", "c_hash", "email"]
                : shared + ["amr", "nonce", "email", "given_name", "family_name", "nickname"],
            // Entra's v2 document points at Graph's userinfo; this server answers it itself so clients can call it.
            userInfoEndpoint: v2 ? EndpointTable.url(.userInfo, baseURL: base) : url(.v1UserInfo),
            checkSessionIFrame: v2 ? nil : url(.v1CheckSession),
            kerberosEndpoint: url(.kerberos),
            tenantRegionScope: authority.specificTenant.map { $0.regionScope(in: cloud) },
            tenantRegionSubScope: authority.specificTenant?.effectiveRegionSubScope?.rawValue,
            cloudInstanceName: cloud.cloudInstanceName, cloudGraphHostName: cloud.cloudGraphHostName,
            msgraphHost: context.hostScope == .neutral ? ownHost : cloud.msgraphHost, rbacURL: cloud.rbacURL)
        if let appID { document.jwksURI += "?appid=" + PercentEncoding.encode(appID) }
        return .success(document.json)
    }

    /// The signing keys as Entra publishes them: v2 sets carry `issuer` (with `{tenantid}`), v1 sets do not
    /// (docs/entra-behaviour.md, "Signing keys").
    package func keySet(tenant segment: String, version: ProtocolVersion, context: RequestScope) -> Result<JSONValue, OAuthError> {
        let directory = context.directory
        guard let authority = Authority(segment: segment, directory: directory) else {
            return .failure(.tenantNotFound(segment, forDiscovery: true))
        }
        let issuer: String? = version == .v2 ? "\(context.issuerBaseURL(for: authority.specificTenant))/\(authority.issuerTenant)/v2.0" : nil
        var keys: [JSONWebKey] = []
        for key in directory.signingKeys {
            do { keys.append(try key.jsonWebKey(issuer: issuer)) } catch {
                return .failure(OAuthError(code: .serverError, message: "The key set could not be built.", status: 500,
                                           reason: "building the JWK failed: \(error)"))
            }
        }
        return .success(JSONWebKeySet(keys: keys).json)
    }

    /// `/common/discovery/instance` (docs/entra-behaviour.md, "Clouds and instance discovery"): the tenant discovery
    /// endpoint for the tenant named in `authorization_endpoint`, and Entra's cloud metadata. This server's own
    /// `host[:port]` comes first unless it is one of the cloud names that metadata already carries (a cloud host on the
    /// default port): MSAL.js replaces the authority's host with `preferred_network`, so an entry must name the address
    /// the client really uses.
    package func instanceDiscovery(authorizationEndpoint: String?, servedHosts: Set<String>,
                                  context: RequestScope) -> Result<JSONValue, OAuthError> {
        var tenant = "common"
        var v1 = false
        if let endpoint = authorizationEndpoint {
            guard let parsed = ParsedURL(endpoint), servedHosts.contains(parsed.host) || Cloud.forHost(parsed.host) != nil else {
                return .failure(.unknownInstance())
            }
            let segments = parsed.path.split(separator: "/").map(String.init)
            if let first = segments.first { tenant = first }
            v1 = !segments.contains("v2.0")
        }
        let discovery = EndpointTable.url(v1 ? .v1Discovery : .v2Discovery, baseURL: context.baseURL, tenant: tenant)
        let own = ParsedURL(context.baseURL)?.hostAndPort ?? context.host
        var metadata: [JSONValue] = []
        if !Cloud.instanceMetadata.contains(where: { $0.aliases.contains(own) }) {
            metadata.append(["preferred_network": .string(own), "preferred_cache": .string(own), "aliases": [.string(own)]])
        }
        for entry in Cloud.instanceMetadata {
            metadata.append([
                "preferred_network": .string(entry.preferredNetwork),
                "preferred_cache": .string(entry.preferredCache),
                "aliases": .array(entry.aliases.map { .string($0) }),
            ])
        }
        return .success([
            "tenant_discovery_endpoint": .string(discovery),
            "api-version": "1.1",
            "metadata": .array(metadata),
        ])
    }

    /// `/common/userrealm/{username}`: managed for a domain of a tenant served on the request's host, unknown
    /// otherwise (docs/entra-behaviour.md, "User realm").
    package func userRealm(username: String, context: RequestScope) -> JSONValue {
        let domain = username.split(separator: "@").last.map(String.init) ?? username
        guard let tenant = context.directory.tenant(domain), context.hostScope.serves(tenant) else {
            return ["ver": "1.0", "account_type": "Unknown", "cloud_instance_name": .string(context.cloud(for: nil).cloudInstanceName)]
        }
        return [
            "ver": "1.0", "account_type": "Managed", "domain_name": .string(domain.lowercased()),
            "cloud_instance_name": .string(context.cloud(for: tenant).cloudInstanceName),
            "cloud_audience_urn": "urn:federation:MicrosoftOnline",
        ]
    }
}

/// The parts of an absolute URL this module needs.
struct ParsedURL {
    var scheme: String
    var host: String
    var port: Int?
    var path: String

    var hostAndPort: String { port.map { "\(host):\($0)" } ?? host }

    init?(_ text: String) {
        guard let schemeEnd = text.firstRange(of: "://") else { return nil }
        scheme = String(text[..<schemeEnd.lowerBound]).lowercased()
        let rest = text[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        path = String(rest[authorityEnd...].prefix { $0 != "?" && $0 != "#" })
        guard !authority.isEmpty, !authority.contains("@") else { return nil }
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = String(authority[authority.startIndex...close]).lowercased()
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") { guard let p = Int(after.dropFirst()) else { return nil }; port = p } else { port = nil }
        } else if let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon]).lowercased()
            guard let p = Int(authority[authority.index(after: colon)...]) else { return nil }
            port = p
        } else {
            host = String(authority).lowercased()
            port = nil
        }
    }
}
