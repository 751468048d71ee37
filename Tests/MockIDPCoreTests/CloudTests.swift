import MockIDPCore
import MockIDPJOSE
import Testing

/// A directory with a tenant in every cloud, a B2C tenant, and the default test tenants.
enum CloudFixtures {
    static let govID = "4712c55e-5996-4a23-b912-9014db0ff64d"
    static let chinaID = "df00500f-fe5b-423d-9c74-f51641e59d90"
    static let germanyID = "db6a725b-51ed-4fca-ac7b-55c6fb045799"
    static let b2cID = "a4cf0827-8d79-45b2-ab17-599d4e41cad3"
    static let govConsole = "f8478eca-024f-4bf7-a149-d93360a90d31"
    static let chinaService = "715b8751-0aeb-4640-a512-d1bf0abe9a01"

    static let configuration: IdentityProviderConfiguration = {
        var c = Fixtures.configuration
        c.tenants += [
            Tenant(id: govID, domains: ["contosogov.onmicrosoft.us"], cloud: .usgov,
                   users: [User(username: "grace@contosogov.onmicrosoft.us", password: "grace-password", name: "Grace Green",
                                objectID: User.derivedObjectID(tenantID: govID, username: "grace@contosogov.onmicrosoft.us"))],
                   apps: [Application(clientID: govConsole, type: .public, redirectURIs: ["http://localhost"])]),
            Tenant(id: chinaID, domains: ["contosocn.partner.onmschina.cn"], cloud: .china,
                   apps: [Application(clientID: chinaService, type: .confidential, secret: "china-secret",
                                      apiPermissions: [APIPermission(resource: "https://microsoftgraph.chinacloudapi.cn",
                                                                     values: ["User.Read.All"])])]),
            Tenant(id: germanyID, domains: ["contosode.onmicrosoft.de"], cloud: .germany),
            Tenant(id: b2cID, domains: ["fabrikamb2c.onmicrosoft.com"], b2c: B2CSettings(policies: ["B2C_1_susi"])),
        ]
        return c
    }()

    static func provider() -> IdentityProvider {
        IdentityProvider(configuration: configuration, signingKeys: [Fixtures.signingKey], clock: .fixed(Fixtures.now))
    }

}

@Suite struct CloudTests {
    let provider = CloudFixtures.provider()

    @Test("every cloud's Graph resource is in lower case, as scope checks compare it with a lower-cased prefix")
    func graphResourcesAreLowerCase() {
        for cloud in Cloud.all { #expect(cloud.graphResource == cloud.graphResource.lowercased(), "\(cloud.name)") }
    }

    func document(_ tenant: String, _ version: ProtocolVersion = .v2, at host: String) -> Result<JSONValue, OAuthError> {
        provider.discovery.openIDConfiguration(tenant: tenant, version: version, context: provider.testScope(at: host))
    }

    @Test("every login host and B2C host names its cloud; other names are neutral", arguments: [
        ("login.microsoftonline.com", HostScope.login(.publicCloud)), ("login.windows.net", .login(.publicCloud)),
        ("login.microsoft.com", .login(.publicCloud)), ("sts.windows.net", .login(.publicCloud)),
        ("LOGIN.MICROSOFTONLINE.US", .login(.usGovernment)), ("login-us.microsoftonline.com", .login(.usGovernment)),
        ("login.usgovcloudapi.net", .login(.usGovernment)),
        ("login.chinacloudapi.cn", .login(.china)), ("login.partner.microsoftonline.cn", .login(.china)),
        ("login.microsoftonline.de", .login(.germany)),
        ("fabrikamb2c.b2clogin.com", .b2c(.publicCloud)), ("x.b2clogin.us", .b2c(.usGovernment)),
        ("x.b2clogin.cn", .b2c(.china)), ("x.b2clogin.de", .b2c(.germany)),
        ("localhost", .neutral), ("127.0.0.1", .neutral), ("idp.test", .neutral), ("b2clogin.com", .neutral),
        ("login.microsoftonline.com.evil.example", .neutral),
    ])
    func hostScopes(host: String, scope: HostScope) {
        #expect(HostScope(host: host) == scope)
    }

    @Test("a cloud's login host serves its own tenants only; a B2C host only B2C tenants; others serve all")
    func servingRules() {
        let tenants = provider.snapshot().configuration.tenants
        func served(_ host: String) -> Set<String> { Set(tenants.filter { HostScope(host: host).serves($0) }.map(\.id)) }
        #expect(served("login.microsoftonline.us") == [CloudFixtures.govID])
        #expect(served("login.chinacloudapi.cn") == [CloudFixtures.chinaID])
        #expect(served("login.microsoftonline.de") == [CloudFixtures.germanyID])
        #expect(served("login.windows.net") == [Fixtures.contosoID, Fixtures.fabrikamID, CloudFixtures.b2cID])
        #expect(served("fabrikamb2c.b2clogin.com") == [CloudFixtures.b2cID])
        #expect(served("x.b2clogin.us").isEmpty)
        #expect(served("localhost").count == tenants.count)
    }

    @Test("the served host names are the configured hosts, every tenant's cloud hosts and the B2C hosts")
    func servedHostNames() {
        var c = CloudFixtures.configuration
        c.hosts = ["IDP.Test"]
        let names = c.servedHostNames
        #expect(names.first == "idp.test")
        for cloud in Cloud.all { for alias in cloud.aliases { #expect(names.contains(alias), "\(alias)") } }
        #expect(names.contains("fabrikamb2c.b2clogin.com"))
        #expect(!names.contains { $0.hasSuffix(".b2clogin.us") })
        #expect(Set(names).count == names.count)
        let publicOnly = IdentityProviderConfiguration(tenants: [Tenant(id: Fixtures.contosoID)])
        #expect(publicOnly.servedHostNames == Cloud.publicCloud.aliases)
    }

    @Test("discovery at a cloud's host answers as that cloud", arguments: [
        ("login.microsoftonline.us", CloudFixtures.govID, "microsoftonline.us", "graph.microsoft.us", "USGov", "https://pasff.usgovcloudapi.net"),
        ("login.usgovcloudapi.net", CloudFixtures.govID, "microsoftonline.us", "graph.microsoft.us", "USGov", "https://pasff.usgovcloudapi.net"),
        ("login.chinacloudapi.cn", CloudFixtures.chinaID, "partner.microsoftonline.cn", "microsoftgraph.chinacloudapi.cn", "AS", "https://pas.chinacloudapi.cn"),
        ("login.microsoftonline.de", CloudFixtures.germanyID, "microsoftonline.de", "graph.microsoft.de", "EU", "https://pas.cloudapi.de"),
        ("login.windows.net", Fixtures.contosoID, "microsoftonline.com", "graph.microsoft.com", "WW", "https://pas.windows.net"),
    ])
    func cloudDiscovery(host: String, tenant: String, instance: String, graph: String, region: String, rbac: String) throws {
        guard case .success(let d) = document(tenant, at: host) else { Issue.record("discovery failed at \(host)"); return }
        let cloud = try #require(Cloud.forHost(host))
        // Entra: the issuer names the cloud's canonical host whichever alias was asked; endpoints keep the alias.
        #expect(d["issuer"] == .string("https://\(cloud.issuerHost)/\(tenant)/v2.0"))
        #expect(d["token_endpoint"] == .string("https://\(host)/\(tenant)/oauth2/v2.0/token"))
        #expect(d["cloud_instance_name"] == .string(instance))
        #expect(d["cloud_graph_host_name"] == .string(cloud.cloudGraphHostName))
        #expect(d["msgraph_host"] == .string(graph))
        #expect(d["tenant_region_scope"] == .string(region))
        #expect(d["rbac_url"] == .string(rbac))
        guard case .success(let v1) = document(tenant, .v1, at: host) else { Issue.record("v1 discovery failed at \(host)"); return }
        #expect(v1["issuer"] == .string("https://\(cloud.v1IssuerHost)/\(tenant)/"))
        #expect(v1["cloud_instance_name"] == .string(instance))
        guard case .success(let keys) = provider.discovery.keySet(tenant: tenant, version: .v2, context: provider.testScope(at: host)) else {
            Issue.record("keys failed"); return
        }
        #expect(keys["keys"]?.arrayValue?.first?["issuer"] == .string("https://\(cloud.issuerHost)/\(tenant)/v2.0"))
    }

    @Test("the China cloud's v1 issuer is sts.chinacloudapi.cn and its v2 issuer login.partner.microsoftonline.cn")
    func chinaIssuers() throws {
        guard case .success(let v1) = document(CloudFixtures.chinaID, .v1, at: "login.chinacloudapi.cn"),
              case .success(let v2) = document(CloudFixtures.chinaID, at: "login.chinacloudapi.cn") else {
            Issue.record("discovery failed"); return
        }
        #expect(v1["issuer"] == .string("https://sts.chinacloudapi.cn/\(CloudFixtures.chinaID)/"))
        #expect(v2["issuer"] == .string("https://login.partner.microsoftonline.cn/\(CloudFixtures.chinaID)/v2.0"))
        #expect(v2["authorization_endpoint"] == .string("https://login.chinacloudapi.cn/\(CloudFixtures.chinaID)/oauth2/v2.0/authorize"))
    }

    @Test("common and organizations at a cloud's host answer as that cloud", arguments: ["common", "organizations"])
    func multiTenantAtCloudHost(segment: String) {
        guard case .success(let d) = document(segment, at: "login.microsoftonline.de") else { Issue.record("failed"); return }
        #expect(d["issuer"] == "https://login.microsoftonline.de/{tenantid}/v2.0")
        #expect(d["msgraph_host"] == "graph.microsoft.de")
        #expect(d["tenant_region_scope"] == .null)
    }

    @Test("a neutral host serves every tenant, each as its own cloud, with this server's issuer")
    func neutralHost() {
        guard case .success(let d) = provider.discovery.openIDConfiguration(tenant: CloudFixtures.govID, version: .v2, context: provider.testScope()) else {
            Issue.record("failed"); return
        }
        #expect(d["issuer"] == .string("https://localhost:8443/\(CloudFixtures.govID)/v2.0"))
        #expect(d["cloud_instance_name"] == "microsoftonline.us" && d["msgraph_host"] == "localhost:8443")
        guard case .success(let common) = provider.discovery.openIDConfiguration(tenant: "common", version: .v2, context: provider.testScope()) else {
            Issue.record("failed"); return
        }
        #expect(common["cloud_instance_name"] == "microsoftonline.com")
    }

    @Test("a tenant asked for on another cloud's host, by GUID or domain, is AADSTS90002 with the reason in words")
    func foreignTenantRefused() throws {
        let refusal = try #require(provider.testScope(at: "login.microsoftonline.us").hostRefusal(tenantSegment: "contoso.onmicrosoft.com", forDiscovery: true))
        #expect(refusal.code == .invalidTenant && refusal.aadsts == 90002 && refusal.status == 400)
        #expect(refusal.message.hasPrefix("Tenant 'contoso.onmicrosoft.com' not found."))
        #expect(refusal.reason.contains("public cloud") && refusal.reason.contains("usgov"))
        let token = try #require(provider.testScope(at: "login.microsoftonline.de").hostRefusal(tenantSegment: CloudFixtures.govID, forDiscovery: false))
        #expect(token.code == .invalidRequest && token.aadsts == 90002)
        let b2c = try #require(provider.testScope(at: "fabrikamb2c.b2clogin.com").hostRefusal(tenantSegment: Fixtures.contosoID, forDiscovery: true))
        #expect(b2c.reason.contains("not an Azure AD B2C tenant"))
        #expect(provider.testScope(at: "login-us.microsoftonline.com").hostRefusal(tenantSegment: CloudFixtures.govID, forDiscovery: true) == nil)
        #expect(provider.testScope().hostRefusal(tenantSegment: CloudFixtures.govID, forDiscovery: true) == nil)
        #expect(provider.testScope(at: "login.microsoftonline.us").hostRefusal(tenantSegment: "common", forDiscovery: true) == nil)
        #expect(provider.testScope(at: "fabrikamb2c.b2clogin.com").hostRefusal(tenantSegment: CloudFixtures.b2cID, forDiscovery: true) == nil)
    }

    @Test("instance discovery at a cloud's host is Entra's table; elsewhere this server's host:port comes first")
    func instanceDiscovery() throws {
        let endpoint = "https://login.microsoftonline.us/\(CloudFixtures.govID)/oauth2/v2.0/authorize"
        guard case .success(let atCloud) = provider.discovery.instanceDiscovery(authorizationEndpoint: endpoint, servedHosts: [],
                                                                      context: provider.testScope(at: "login.microsoftonline.us")) else {
            Issue.record("failed"); return
        }
        #expect(atCloud["tenant_discovery_endpoint"] == .string("https://login.microsoftonline.us/\(CloudFixtures.govID)/v2.0/.well-known/openid-configuration"))
        let metadata = try #require(atCloud["metadata"]?.arrayValue)
        #expect(metadata.count == 5)
        #expect(metadata.map { $0["preferred_network"] } == ["login.microsoftonline.com", "login.partner.microsoftonline.cn",
                                                              "login.microsoftonline.de", "login.microsoftonline.us", "login-us.microsoftonline.com"])
        #expect(metadata[0]["preferred_cache"] == "login.windows.net")
        #expect(metadata[3]["aliases"] == ["login.microsoftonline.us", "login.usgovcloudapi.net"])
        guard case .success(let local) = provider.discovery.instanceDiscovery(authorizationEndpoint: endpoint, servedHosts: [],
                                                                    context: provider.testScope()) else { Issue.record("failed"); return }
        #expect(local["metadata"]?.arrayValue?.count == 6)
        #expect(local["metadata"]?.arrayValue?.first?["aliases"] == ["localhost:8443"])
        // ADAL's v1 question gets the v1 document.
        guard case .success(let v1) = provider.discovery.instanceDiscovery(
            authorizationEndpoint: "https://login.microsoftonline.de/\(CloudFixtures.germanyID)/oauth2/authorize", servedHosts: [],
            context: provider.testScope(at: "login.microsoftonline.de")) else { Issue.record("failed"); return }
        #expect(v1["tenant_discovery_endpoint"] == .string("https://login.microsoftonline.de/\(CloudFixtures.germanyID)/.well-known/openid-configuration"))
    }

    @Test("user realm at a cloud's host knows only that cloud's domains")
    func userRealm() {
        let gov = provider.testScope(at: "login.microsoftonline.us")
        let grace = provider.discovery.userRealm(username: "grace@contosogov.onmicrosoft.us", context: gov)
        #expect(grace["account_type"] == "Managed" && grace["cloud_instance_name"] == "microsoftonline.us")
        #expect(provider.discovery.userRealm(username: "alice@contoso.onmicrosoft.com", context: gov)["account_type"] == "Unknown")
        #expect(provider.discovery.userRealm(username: "grace@contosogov.onmicrosoft.us", context: provider.testScope())["cloud_instance_name"] == "microsoftonline.us")
    }

    @Test("tokens issued at a cloud's host carry that cloud's issuers and Graph")
    func tokensAtCloudHost() throws {
        let gov = provider.token(TokenRequest(tenant: CloudFixtures.govID, parameters: [
            ("grant_type", "password"), ("client_id", CloudFixtures.govConsole), ("username", "grace@contosogov.onmicrosoft.us"),
            ("password", "grace-password"), ("scope", "https://graph.microsoft.us/User.Read openid profile"),
        ].map { (name: $0.0, value: $0.1) }), context: provider.testScope(at: "login-us.microsoftonline.com"))
        let body = try #require(gov.body)
        let id = Fixtures.claims(body["id_token"]?.stringValue)
        #expect(id["iss"] == .string("https://login.microsoftonline.us/\(CloudFixtures.govID)/v2.0"))
        let at = Fixtures.claims(body["access_token"]?.stringValue)
        #expect(at["aud"] == "https://graph.microsoft.us" && at["ver"] == "1.0")
        #expect(at["iss"] == .string("https://sts.windows.net/\(CloudFixtures.govID)/"))

        let china = provider.token(TokenRequest(tenant: CloudFixtures.chinaID, parameters: [
            ("grant_type", "client_credentials"), ("client_id", CloudFixtures.chinaService), ("client_secret", "china-secret"),
            ("scope", "https://microsoftgraph.chinacloudapi.cn/.default"),
        ].map { (name: $0.0, value: $0.1) }), context: provider.testScope(at: "login.chinacloudapi.cn"))
        let app = Fixtures.claims(try #require(china.body)["access_token"]?.stringValue)
        #expect(app["iss"] == .string("https://sts.chinacloudapi.cn/\(CloudFixtures.chinaID)/"))
        #expect(app["aud"] == "https://microsoftgraph.chinacloudapi.cn")
        #expect(app["roles"] == ["User.Read.All"])
    }

    @Test("a user of another cloud cannot sign in through /organizations at a cloud's host")
    func organizationsAcrossClouds() {
        let result = provider.token(TokenRequest(tenant: "organizations", parameters: [
            ("grant_type", "password"), ("client_id", Fixtures.mobile), ("username", "alice@contoso.onmicrosoft.com"),
            ("password", "alice-password"), ("scope", "User.Read"),
        ].map { (name: $0.0, value: $0.1) }), context: provider.testScope(at: "login.microsoftonline.us"))
        #expect(result.error?.aadsts == 90002)
    }
}
