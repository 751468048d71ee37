import Foundation
import MockIDPConfiguration
import MockIDPCore
import MockIDPJOSE
import MockIDPTesting
import Testing

/// Sovereign clouds in both modes: the request's `Host` decides the cloud, a cloud's host serves only its own tenants,
/// and (over real sockets) the certificate names every served host. Also the v1 endpoints and guests.
@Suite struct CloudEndpointTests {
    static let contoso = "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11"
    static let gov = "4712c55e-5996-4a23-b912-9014db0ff64d"
    static let china = "df00500f-fe5b-423d-9c74-f51641e59d90"
    static let germany = "db6a725b-51ed-4fca-ac7b-55c6fb045799"
    static let b2c = "a4cf0827-8d79-45b2-ab17-599d4e41cad3"
    static let litware = "2fc7ded4-0f77-4684-a587-ba98ed032ec2"
    static let northwind = "ca2e06db-632b-44e1-a5f8-0ac4cb9047f2"

    /// The default configuration with the sovereign, guest and B2C examples merged over it.
    static func configuration() throws -> IdentityProviderConfiguration {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try ConfigurationLoader.load(paths: ["config/default.yaml", "config/examples/sovereign.yaml",
                                                    "config/examples/guest.yaml", "config/examples/b2c.yaml"]
            .map { root.appendingPathComponent($0).path })
    }

    func get(_ idp: MockIdentityProvider, _ path: String, host: String) async throws -> MockIDPResponse {
        try await idp.get(path, headers: ["Host": host])
    }

    func form(_ idp: MockIdentityProvider, _ path: String, host: String, _ pairs: [(String, String)]) async throws -> MockIDPResponse {
        try await idp.postForm(path, pairs, headers: ["Host": host])
    }

    @Test("each cloud's hosts answer as that cloud: issuer, endpoints, cloud names, key set",
          arguments: MockIdentityProviderMode.allCases, [
        ("login.microsoftonline.com", contoso), ("login.windows.net", contoso), ("login.microsoft.com", contoso), ("sts.windows.net", contoso),
        ("login.microsoftonline.us", gov), ("login.usgovcloudapi.net", gov), ("login-us.microsoftonline.com", gov),
        ("login.chinacloudapi.cn", china), ("login.partner.microsoftonline.cn", china), ("login.microsoftonline.de", germany),
    ])
    func cloudHosts(mode: MockIdentityProviderMode, site: (String, String)) async throws {
        let (host, tenant) = site
        let cloud = try #require(Cloud.forHost(host))
        try await withMockIdentityProvider(configuration: .value(try Self.configuration()), mode: mode) { idp in
            let d = try await get(idp, "/\(tenant)/v2.0/.well-known/openid-configuration", host: host)
            #expect(d.status == 200, "\(d.text)")
            #expect(d.json["issuer"] == .string("https://\(cloud.issuerHost)/\(tenant)/v2.0"))
            #expect(d.json["authorization_endpoint"] == .string("http://\(host)/\(tenant)/oauth2/v2.0/authorize"))
            #expect(d.json["cloud_instance_name"] == .string(cloud.cloudInstanceName))
            #expect(d.json["cloud_graph_host_name"] == .string(cloud.cloudGraphHostName))
            #expect(d.json["msgraph_host"] == .string(cloud.msgraphHost))
            let v1 = try await get(idp, "/\(tenant)/.well-known/openid-configuration", host: host)
            #expect(v1.json["issuer"] == .string("https://\(cloud.v1IssuerHost)/\(tenant)/"))
            #expect(v1.json["token_endpoint"] == .string("http://\(host)/\(tenant)/oauth2/token"))
            let keys = try await get(idp, "/\(tenant)/discovery/v2.0/keys", host: host)
            #expect(keys.json["keys"]?.arrayValue?.first?["issuer"] == .string("https://\(cloud.issuerHost)/\(tenant)/v2.0"))
            let common = try await get(idp, "/common/v2.0/.well-known/openid-configuration", host: host)
            #expect(common.json["issuer"] == .string("https://\(cloud.issuerHost)/{tenantid}/v2.0"))
            #expect(common.json["msgraph_host"] == .string(cloud.msgraphHost))
        }
    }

    @Test("a tenant of another cloud is AADSTS90002 at every endpoint of a cloud's host",
          arguments: MockIdentityProviderMode.allCases)
    func foreignTenant(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: .value(try Self.configuration()), mode: mode) { idp in
            let host = "login.microsoftonline.us"
            for path in ["/\(Self.contoso)/v2.0/.well-known/openid-configuration", "/contoso.onmicrosoft.com/.well-known/openid-configuration",
                         "/\(Self.contoso)/discovery/v2.0/keys", "/\(Self.germany)/discovery/keys"] {
                let r = try await get(idp, path, host: host)
                #expect(r.status == 400 && r.json["error"] == "invalid_tenant" && r.json["error_codes"] == [90002], "\(path)")
                #expect(r.json["error_uri"] == "https://login.microsoftonline.us/error?code=90002")
            }
            for path in ["/\(Self.contoso)/oauth2/v2.0/token", "/\(Self.china)/oauth2/token", "/\(Self.contoso)/oauth2/v2.0/devicecode"] {
                let r = try await form(idp, path, host: host, [("grant_type", "client_credentials"), ("client_id", "9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d"),
                                                               ("client_secret", "daemon-secret"), ("scope", "api://contoso-api/.default")])
                #expect(r.status == 400 && r.json["error"] == "invalid_request" && r.json["error_codes"] == [90002], "\(path)")
            }
            let page = try await get(idp, "/\(Self.contoso)/oauth2/v2.0/authorize?client_id=3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c&response_type=code&redirect_uri=http%3A%2F%2Flocalhost&scope=openid",
                                     host: host)
            #expect(page.status == 400 && page.text.contains("AADSTS90002"))
            // The same tenant on its own cloud's host, and on a neutral host, is served.
            #expect(try await get(idp, "/\(Self.contoso)/v2.0/.well-known/openid-configuration", host: "login.windows.net").status == 200)
            #expect(try await idp.get("/\(Self.gov)/v2.0/.well-known/openid-configuration").status == 200)
        }
    }

    @Test("the sign-in page of /organizations at a cloud's host offers only that cloud's users",
          arguments: MockIdentityProviderMode.allCases)
    func signInPageAtCloudHost(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: .value(try Self.configuration()), mode: mode) { idp in
            let query = "client_id=f8478eca-024f-4bf7-a149-d93360a90d31&response_type=code&redirect_uri=http%3A%2F%2Flocalhost&scope=openid"
            let gov = try await get(idp, "/organizations/oauth2/v2.0/authorize?" + query, host: "login.microsoftonline.us")
            #expect(gov.status == 200)
            #expect(gov.text.contains("grace@contosogov.onmicrosoft.us") && !gov.text.contains("alice@contoso.onmicrosoft.com"))
            let local = try await idp.get("/organizations/oauth2/v2.0/authorize?" + query)
            #expect(local.text.contains("grace@contosogov.onmicrosoft.us") && local.text.contains("alice@contoso.onmicrosoft.com"))
        }
    }

    @Test("a neutral host serves every tenant as its own cloud", arguments: MockIdentityProviderMode.allCases)
    func neutralHost(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: .value(try Self.configuration()), mode: mode) { idp in
            for (tenant, instance) in [(Self.gov, "microsoftonline.us"), (Self.china, "partner.microsoftonline.cn"),
                                       (Self.germany, "microsoftonline.de"), (Self.contoso, "microsoftonline.com")] {
                let d = try await idp.get("/\(tenant)/v2.0/.well-known/openid-configuration").json
                #expect(d["issuer"] == .string("\(idp.baseURL)/\(tenant)/v2.0"))
                #expect(d["cloud_instance_name"] == .string(instance))
            }
            let d = try await get(idp, "/\(Self.gov)/v2.0/.well-known/openid-configuration", host: "idp.test:9443").json
            #expect(d["issuer"] == .string("http://idp.test:9443/\(Self.gov)/v2.0"))
        }
    }

    @Test("B2C hosts serve the cloud's B2C tenants only", arguments: MockIdentityProviderMode.allCases)
    func b2cHosts(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: .value(try Self.configuration()), mode: mode) { idp in
            let host = "fabrikamb2c.b2clogin.com"
            let policy = try await get(idp, "/fabrikamb2c.onmicrosoft.com/B2C_1_signupsignin/v2.0/.well-known/openid-configuration", host: host)
            #expect(policy.status == 200, "\(policy.text)")
            #expect(policy.json["issuer"] == .string("http://\(host)/\(Self.b2c)/v2.0/"))
            let other = try await get(idp, "/contoso.onmicrosoft.com/v2.0/.well-known/openid-configuration", host: host)
            #expect(other.status == 400 && other.json["error_codes"] == [90002])
            let otherCloud = try await get(idp, "/tfp/fabrikamb2c.onmicrosoft.com/B2C_1_signupsignin/v2.0/.well-known/openid-configuration",
                                           host: "fabrikamb2c.b2clogin.us")
            #expect(otherCloud.status == 400 && otherCloud.json["error_codes"] == [90002])
        }
    }

    @Test("instance discovery and user realm at a cloud's host", arguments: MockIdentityProviderMode.allCases)
    func instanceDiscoveryAndUserRealm(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: .value(try Self.configuration()), mode: mode) { idp in
            let host = "login.microsoftonline.de"
            let r = try await get(idp, "/common/discovery/instance?api-version=1.1&authorization_endpoint=https://login.microsoftonline.de/common/oauth2/authorize",
                                  host: host)
            #expect(r.status == 200)
            #expect(r.json["tenant_discovery_endpoint"] == "http://login.microsoftonline.de/common/.well-known/openid-configuration")
            let metadata = try #require(r.json["metadata"]?.arrayValue)
            #expect(metadata.count == Cloud.instanceMetadata.count)
            let de = try #require(metadata.first { $0["preferred_network"] == "login.microsoftonline.de" })
            #expect(de["preferred_cache"] == "login.microsoftonline.de" && de["aliases"] == ["login.microsoftonline.de"])
            let klaus = try await get(idp, "/common/userrealm/klaus@contosode.onmicrosoft.de?api-version=1.0", host: host).json
            #expect(klaus["account_type"] == "Managed" && klaus["cloud_instance_name"] == "microsoftonline.de")
            let alice = try await get(idp, "/common/userrealm/alice@contoso.onmicrosoft.com?api-version=1.0", host: host).json
            #expect(alice["account_type"] == "Unknown")
        }
    }

    @Test("tokens at a cloud's host: US Government password grant and China client credentials for its Graph",
          arguments: MockIdentityProviderMode.allCases)
    func tokens(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: .value(try Self.configuration()), mode: mode) { idp in
            let gov = try await form(idp, "/contosogov.onmicrosoft.us/oauth2/v2.0/token", host: "login.microsoftonline.us", [
                ("grant_type", "password"), ("client_id", "f8478eca-024f-4bf7-a149-d93360a90d31"),
                ("username", "grace@contosogov.onmicrosoft.us"), ("password", "grace-password"),
                ("scope", "https://graph.microsoft.us/User.Read openid profile offline_access"), ("client_info", "1"),
            ])
            #expect(gov.status == 200, "\(gov.text)")
            let id = claims(gov.json["id_token"])
            #expect(id["iss"] == .string("https://login.microsoftonline.us/\(Self.gov)/v2.0") && id["tid"] == .string(Self.gov))
            #expect(claims(gov.json["access_token"])["aud"] == "https://graph.microsoft.us")
            let china = try await form(idp, "/\(Self.china)/oauth2/v2.0/token", host: "login.chinacloudapi.cn", [
                ("grant_type", "client_credentials"), ("client_id", "715b8751-0aeb-4640-a512-d1bf0abe9a01"),
                ("client_secret", "china-service-secret"), ("scope", "https://microsoftgraph.chinacloudapi.cn/.default"),
            ])
            let at = claims(china.json["access_token"])
            #expect(at["iss"] == .string("https://sts.chinacloudapi.cn/\(Self.china)/") && at["roles"] == ["User.Read.All"])
            // A US Government user through /organizations of the public cloud is not found there.
            let crossed = try await form(idp, "/organizations/oauth2/v2.0/token", host: "login.microsoftonline.com", [
                ("grant_type", "password"), ("client_id", "f8478eca-024f-4bf7-a149-d93360a90d31"),
                ("username", "grace@contosogov.onmicrosoft.us"), ("password", "grace-password"), ("scope", "openid"),
            ])
            #expect(crossed.status == 400 && crossed.json["error_codes"] == [90002])
        }
    }

    @Test("the TLS certificate names every host the configuration serves")
    func certificateNames() async throws {
        try await withMockIdentityProvider(configuration: .value(try Self.configuration()), tls: true) { idp in
            let pem = try String(contentsOfFile: idp.server.stateDirectory.path + "/server.pem", encoding: .utf8)
            let names = Set(try Certificate(pem: pem).subjectAlternativeNames)
            for host in ["localhost", "127.0.0.1", "login.microsoftonline.com", "sts.windows.net", "login.microsoftonline.us",
                         "login-us.microsoftonline.com", "login.chinacloudapi.cn", "login.partner.microsoftonline.cn",
                         "login.microsoftonline.de", "fabrikamb2c.b2clogin.com"] {
                #expect(names.contains(host), "\(host)")
            }
        }
    }

    @Test("the v1 token endpoint: resource, v1 claims and the v1 response shape",
          arguments: MockIdentityProviderMode.allCases)
    func v1TokenEndpoint(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: .value(try Self.configuration()), mode: mode) { idp in
            let r = try await form(idp, "/contoso.onmicrosoft.com/oauth2/token", host: "login.windows.net", [
                ("grant_type", "password"), ("client_id", "3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c"), ("resource", "https://graph.microsoft.com"),
                ("username", "alice@contoso.onmicrosoft.com"), ("password", "alice-password"),
            ])
            #expect(r.status == 200, "\(r.text)")
            #expect(r.json["expires_in"]?.stringValue != nil && r.json["resource"] == "https://graph.microsoft.com")
            let at = claims(r.json["access_token"]), id = claims(r.json["id_token"])
            #expect(at["iss"] == .string("https://sts.windows.net/\(Self.contoso)/") && at["ver"] == "1.0")
            #expect(at["upn"] == "alice@contoso.onmicrosoft.com" && at["appid"] == "3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c")
            #expect(id["ver"] == "1.0" && id["unique_name"] == "alice@contoso.onmicrosoft.com")
            let missing = try await form(idp, "/\(Self.contoso)/oauth2/token", host: "login.windows.net", [
                ("grant_type", "client_credentials"), ("client_id", "9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d"), ("client_secret", "daemon-secret"),
            ])
            #expect(missing.status == 400 && missing.json["error_codes"] == [900144])
        }
    }

    @Test("a guest: Litware's tid, Northwind as idp and in client_info", arguments: MockIdentityProviderMode.allCases)
    func guest(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: .value(try Self.configuration()), mode: mode) { idp in
            let r = try await idp.postForm("/litware.onmicrosoft.com/oauth2/v2.0/token", [
                ("grant_type", "password"), ("client_id", "87c45d77-3f00-4574-9d7b-403327fb8089"), ("username", "ivan@northwind.onmicrosoft.com"),
                ("password", "ivan-password"), ("scope", "User.Read openid profile"), ("client_info", "1"),
            ])
            #expect(r.status == 200, "\(r.text)")
            let id = claims(r.json["id_token"])
            #expect(id["tid"] == .string(Self.litware) && id["idp"] == .string("https://sts.windows.net/\(Self.northwind)/"))
            let info = try #require(r.json["client_info"]?.stringValue.flatMap { Base64URL.decode($0) }.flatMap { try? JSONValue.parse($0) })
            #expect(info["utid"] == .string(Self.northwind))
            #expect(info["uid"] == .string(User.derivedObjectID(tenantID: Self.northwind, username: "ivan@northwind.onmicrosoft.com")))
        }
    }

    func claims(_ token: JSONValue?) -> JSONObject {
        guard let text = token?.stringValue, let jws = try? CompactJWS(text) else { return [:] }
        return jws.payload
    }
}
