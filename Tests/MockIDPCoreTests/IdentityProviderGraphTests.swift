import MockIDPCore
import MockIDPJOSE
import Testing

/// Graph's directory slice through `IdentityProvider.graph`, with tokens the provider issued.
@Suite struct IdentityProviderGraphTests {
    static let sales = "a8f2c1d4-7b3e-4f5a-9c6d-2e1f0a9b8c7d"
    static let news = "b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e"

    let provider: IdentityProvider = {
        var configuration = Fixtures.configuration
        configuration.tenants[0].groups = [Group(id: news, displayName: "Newsletter", securityEnabled: false, mail: "news@contoso.com")]
        configuration.tenants[0].users[0].groups.append(news)
        configuration.tenants[0].users[0].profile = ["jobTitle": "Buyer", "businessPhones": ["+1 425 555 0109"]]
        configuration.tenants[0].apps[0].apiPermissions = [APIPermission(resource: "https://graph.microsoft.com", values: ["User.Read"])]
        return IdentityProvider(configuration: configuration, signingKeys: [Fixtures.signingKey], clock: .fixed(Fixtures.now))
    }()

    func token(_ parameters: [(String, String)]) -> String? {
        Fixtures.token(provider, parameters).body?["access_token"]?.stringValue
    }

    var appToken: String? {
        token([("grant_type", "client_credentials"), ("client_id", Fixtures.daemon), ("client_secret", "daemon-secret"),
               ("scope", "https://graph.microsoft.com/.default")])
    }

    var userToken: String? {
        token([("grant_type", "password"), ("client_id", Fixtures.mobile), ("username", "alice@contoso.onmicrosoft.com"),
               ("password", "alice-password"), ("scope", "User.Read")])
    }

    func graph(_ path: String, token: String?, method: String = "GET", query: [(String, String)] = [], body: String = "",
               eventual: Bool = false, host: String = "localhost") -> Result<GraphResponse, OAuthError> {
        let request = GraphRequest(method: method, version: "v1.0", segments: path.split(separator: "/").map(String.init),
                                   query: query.map { (name: $0.0, value: $0.1) }, bearerToken: token, eventual: eventual,
                                   body: Array(body.utf8))
        return provider.graph.answer(request, context: provider.testScope(at: host))
    }

    func json(_ result: Result<GraphResponse, OAuthError>) -> JSONObject {
        if case .success(.json(let value)) = result { return value.objectValue ?? [:] }
        Issue.record("not a JSON answer: \(result)")
        return [:]
    }

    @Test("/me is the signed-in user as Graph's user object, its default properties in Graph's order")
    func me() {
        let me = json(graph("me", token: userToken))
        #expect(me.keys == ["@odata.context", "businessPhones", "displayName", "givenName", "jobTitle", "mail", "mobilePhone",
                            "officeLocation", "preferredLanguage", "surname", "userPrincipalName", "id"])
        #expect(me["@odata.context"] == "https://localhost/v1.0/$metadata#users/$entity")
        #expect(me["id"] == .string(Fixtures.aliceOID) && me["jobTitle"] == "Buyer" && me["surname"] == "Adams")
        #expect(me["businessPhones"] == ["+1 425 555 0109"] && me["mobilePhone"] == .null)
    }

    @Test("$select returns exactly the properties asked for, and names them in @odata.context")
    func select() {
        let me = json(graph("users/alice@contoso.onmicrosoft.com", token: appToken, query: [("$select", "id,accountEnabled,userType")]))
        #expect(me.keys == ["@odata.context", "id", "accountEnabled", "userType"])
        #expect(me["@odata.context"] == "https://localhost/v1.0/$metadata#users(id,accountEnabled,userType)/$entity")
        #expect(me["accountEnabled"] == true && me["userType"] == "Member")
    }

    @Test("the user list pages with an opaque $skiptoken that the next request honours")
    func paging() throws {
        let first = json(graph("users", token: appToken, query: [("$top", "1"), ("$select", "userPrincipalName")]))
        #expect(first["value"]?.arrayValue?.count == 1)
        let next = try #require(first["@odata.nextLink"]?.stringValue)
        #expect(next.hasPrefix("https://localhost/v1.0/users?$top=1&$select=userPrincipalName&$skiptoken="))
        let token = String(next.split(separator: "$skiptoken=")[1])
        let second = json(graph("users", token: appToken, query: [("$top", "1"), ("$select", "userPrincipalName"), ("$skiptoken", token)]))
        #expect(second["value"] == [["userPrincipalName": "bob@contoso.onmicrosoft.com"]])
        #expect(second["@odata.nextLink"] == nil)
    }

    @Test("memberOf lists the user's groups as directoryObjects; getMemberObjects honours securityEnabledOnly")
    func memberships() {
        let groups = json(graph("me/memberOf", token: userToken))
        #expect(groups["@odata.context"] == "https://localhost/v1.0/$metadata#directoryObjects")
        let values = groups["value"]?.arrayValue ?? []
        #expect(values.map { $0["@odata.type"] } == ["#microsoft.graph.group", "#microsoft.graph.group"])
        #expect(values.map { $0["displayName"] } == ["Group a8f2c1d4", "Newsletter"])
        #expect(values[1]["mailEnabled"] == true && values[1]["securityEnabled"] == false)
        let security = json(graph("me/getMemberObjects", token: userToken, method: "POST", body: #"{"securityEnabledOnly": true}"#))
        #expect(security["value"] == [.string(Self.sales)])
        let all = json(graph("me/getMemberObjects", token: userToken, method: "POST", body: #"{"securityEnabledOnly": false}"#))
        #expect(all["value"] == [.string(Self.sales), .string(Self.news)])
        #expect(graph("me/getMemberObjects", token: userToken, method: "POST", body: "{").failure?.code == .graphBadRequest)
        #expect(graph("me/getMemberObjects", token: userToken, method: "GET").failure?.status == 405)
    }

    @Test("tokens are checked in Graph's order: present, a JWT, signed here, for Graph, unexpired, of a served tenant and cloud")
    func tokenChecks() throws {
        #expect(graph("me", token: nil).failure?.message == "Access token is empty.")
        #expect(graph("me", token: "opaque").failure?.status == 401)
        let apiToken = token([("grant_type", "client_credentials"), ("client_id", Fixtures.daemon), ("client_secret", "daemon-secret"),
                              ("scope", "api://contoso-api/.default")])
        #expect(graph("users", token: apiToken).failure?.message == "Access token validation failure. Invalid audience.")
        let good = try #require(appToken)
        let parts = good.split(separator: ".")
        let forged = parts[0] + "." + parts[1] + "." + Base64URL.encode(Array(repeating: 7, count: 256))
        #expect(graph("users", token: String(forged)).failure?.code == .graphInvalidAuthenticationToken)
        #expect(graph("users", token: good, host: "graph.microsoft.us").failure?.message == "Access token validation failure. Invalid issuer.")
        #expect(graph("users", token: good, host: "graph.microsoft.com").failure == nil)
        provider.clock.advance(by: 3601)
        defer { provider.clock.reset() }
        #expect(graph("users", token: good).failure?.message == "Lifetime validation failed, the token is expired.")
    }

    @Test("permissions: 403 Authorization_RequestDenied; /me app-only is Graph's 400; unknown ids and segments as Graph answers them")
    func refusals() {
        #expect(graph("users", token: userToken).failure?.code == .graphAuthorizationRequestDenied)
        #expect(graph("groups", token: appToken).failure?.status == 403)
        #expect(graph("me", token: appToken).failure?.message == "/me request is only valid with delegated authentication flow.")
        #expect(graph("users/nobody@contoso.onmicrosoft.com", token: appToken).failure?.code == .graphRequestResourceNotFound)
        #expect(graph("users/\(Fixtures.aliceOID)/drive", token: appToken).failure?.message == "Resource not found for the segment 'drive'.")
        #expect(graph("me/photo/$value", token: userToken).failure?.code == .graphImageNotFound)
        #expect(graph("users/$count", token: appToken).failure?.code == .graphRequestBadRequest)
        #expect(graph("users/$count", token: appToken, eventual: true) == .success(.count(2)))
    }

    @Test("the organization is the token's tenant")
    func organization() {
        let org = json(graph("organization", token: userToken))
        let value = org["value"]?.arrayValue?.first
        #expect(value?["id"] == .string(Fixtures.contosoID) && value?["displayName"] == "Contoso")
        #expect(value?["verifiedDomains"]?.arrayValue?.first?["isInitial"] == true)
    }
}

/// Graph's hosts of the sovereign clouds: each serves the tokens of its own cloud's tenants.
@Suite struct SovereignGraphTests {
    let provider = CloudFixtures.provider()

    func call(_ path: String, token: String?, host: String) -> Result<GraphResponse, OAuthError> {
        provider.graph.answer(GraphRequest(method: "GET", version: "v1.0", segments: path.split(separator: "/").map(String.init),
                                    bearerToken: token), context: provider.testScope(at: host))
    }

    func token(tenant: String, at host: String, _ parameters: [(String, String)]) -> String? {
        let result = provider.token(TokenRequest(tenant: tenant, parameters: parameters.map { (name: $0.0, value: $0.1) }),
                                    context: provider.testScope(at: host))
        return result.body?["access_token"]?.stringValue
    }

    @Test("a US Government user reads /me at graph.microsoft.us and dod-graph.microsoft.us; graph.microsoft.com refuses the token")
    func usGovernment() throws {
        let grace = try #require(token(tenant: CloudFixtures.govID, at: "login.microsoftonline.us", [
            ("grant_type", "password"), ("client_id", CloudFixtures.govConsole), ("username", "grace@contosogov.onmicrosoft.us"),
            ("password", "grace-password"), ("scope", "https://graph.microsoft.us/User.Read")]))
        for host in ["graph.microsoft.us", "dod-graph.microsoft.us", "localhost"] {
            guard case .success(.json(let me)) = call("me", token: grace, host: host) else { Issue.record("refused at \(host)"); continue }
            #expect(me["userPrincipalName"] == "grace@contosogov.onmicrosoft.us")
        }
        #expect(call("me", token: grace, host: "graph.microsoft.com").failure?.code == .graphInvalidAuthenticationToken)
    }

    @Test("a China app's token for microsoftgraph.chinacloudapi.cn lists its tenant's users there only")
    func china() throws {
        let app = try #require(token(tenant: CloudFixtures.chinaID, at: "login.chinacloudapi.cn", [
            ("grant_type", "client_credentials"), ("client_id", CloudFixtures.chinaService), ("client_secret", "china-secret"),
            ("scope", "https://microsoftgraph.chinacloudapi.cn/.default")]))
        #expect(Fixtures.claims(app)["aud"] == "https://microsoftgraph.chinacloudapi.cn")
        guard case .success(.json(let users)) = call("users", token: app, host: "microsoftgraph.chinacloudapi.cn") else {
            Issue.record("refused"); return
        }
        #expect(users["value"] == [])
        #expect(call("users", token: app, host: "graph.microsoft.us").failure?.status == 401)
    }
}
