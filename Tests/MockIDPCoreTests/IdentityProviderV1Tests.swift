import MockIDPCore
import MockIDPJOSE
import Testing

/// The v1 (ADAL-era) endpoints: `resource` instead of `scope`, v1 claims and v1 response shapes.
@Suite struct IdentityProviderV1Tests {
    /// The default fixtures, with the public client holding a delegated scope on the API and ID-token issuance on.
    static let configuration: IdentityProviderConfiguration = {
        var c = Fixtures.configuration
        c.tenants[0].apps[0].apiPermissions = [APIPermission(resource: "api://contoso-api", values: ["access_as_user"])]
        c.tenants[0].apps[0].enableIDTokenIssuance = true
        return c
    }()
    let provider = IdentityProvider(configuration: configuration, signingKeys: [Fixtures.signingKey], clock: .fixed(Fixtures.now))

    func v1Token(_ pairs: [(String, String)], tenant: String = Fixtures.contosoID) -> Result<TokenResponse, OAuthError> {
        provider.token(TokenRequest(tenant: tenant, version: .v1, parameters: pairs.map { (name: $0.0, value: $0.1) }),
                       context: provider.testScope())
    }

    func password(resource: String) -> Result<TokenResponse, OAuthError> {
        v1Token([("grant_type", "password"), ("client_id", Fixtures.mobile), ("username", "alice@contoso.onmicrosoft.com"),
                 ("password", "alice-password"), ("resource", resource)])
    }

    @Test("a v1 password grant for Graph gives v1 tokens, numbers as strings, resource echoed, refresh and ID token")
    func passwordForGraph() throws {
        let body = try #require(password(resource: "https://graph.microsoft.com").body)
        #expect(Array(body.keys) == ["token_type", "scope", "expires_in", "ext_expires_in", "expires_on", "not_before",
                                     "resource", "access_token", "refresh_token", "id_token"])
        #expect(body["expires_in"] == "3600" && body["not_before"] == .string(String(Fixtures.now)))
        #expect(body["expires_on"] == .string(String(Fixtures.now + 3600)))
        #expect(body["resource"] == "https://graph.microsoft.com")
        let at = Fixtures.claims(body["access_token"]?.stringValue)
        #expect(at["aud"] == "https://graph.microsoft.com")
        #expect(at["iss"] == .string("https://sts.windows.net/\(Fixtures.contosoID)/"))
        #expect(at["ver"] == "1.0" && at["appid"] == .string(Fixtures.mobile) && at["appidacr"] == "0")
        #expect(at["amr"] == ["pwd"] && at["acr"] == "1")
        #expect(at["unique_name"] == "alice@contoso.onmicrosoft.com" && at["upn"] == "alice@contoso.onmicrosoft.com")
        #expect(at["preferred_username"] == nil && at["azp"] == nil)
        let id = Fixtures.claims(body["id_token"]?.stringValue)
        #expect(id["ver"] == "1.0" && id["aud"] == .string(Fixtures.mobile))
        #expect(id["iss"] == .string("https://sts.windows.net/\(Fixtures.contosoID)/"))
        #expect(id["upn"] == "alice@contoso.onmicrosoft.com" && id["unique_name"] == "alice@contoso.onmicrosoft.com")
        #expect(id["amr"] == ["pwd"] && id["preferred_username"] == nil)
        #expect(id["given_name"] == "Alice" && id["family_name"] == "Adams")
        let header = try CompactJWS(try #require(body["id_token"]?.stringValue)).header
        #expect(header["x5t"] == header["kid"])
    }

    @Test("the access token's version follows the API's accessTokenVersion, whatever the endpoint")
    func versionFollowsTheAPI() throws {
        // A v2 API through the v1 endpoint: a v2 access token, named by client ID.
        let v2API = Fixtures.claims(try #require(password(resource: "api://contoso-api").body)["access_token"]?.stringValue)
        #expect(v2API["ver"] == "2.0" && v2API["aud"] == .string(Fixtures.api))
        #expect(v2API["iss"] == .string("https://localhost:8443/\(Fixtures.contosoID)/v2.0"))
        #expect(v2API["azp"] == .string(Fixtures.mobile) && v2API["appid"] == nil)
        // Graph (a v1 API) through the v2 endpoint: a v1 access token.
        let v2Endpoint = Fixtures.token(provider, [("grant_type", "password"), ("client_id", Fixtures.mobile),
                                                   ("username", "alice@contoso.onmicrosoft.com"), ("password", "alice-password"),
                                                   ("scope", "User.Read openid")])
        let graph = Fixtures.claims(try #require(v2Endpoint.body)["access_token"]?.stringValue)
        #expect(graph["ver"] == "1.0" && graph["unique_name"] == "alice@contoso.onmicrosoft.com")
        #expect(Fixtures.claims(v2Endpoint.body?["id_token"]?.stringValue)["ver"] == "2.0")
    }

    @Test("the v1 audience is the resource exactly as sent, trailing slash and all")
    func audienceAsSent() throws {
        let body = try #require(password(resource: "https://graph.microsoft.com/").body)
        #expect(body["resource"] == "https://graph.microsoft.com/")
        #expect(Fixtures.claims(body["access_token"]?.stringValue)["aud"] == "https://graph.microsoft.com/")
        let byAppID = try #require(password(resource: "00000003-0000-0000-c000-000000000000").body)
        #expect(Fixtures.claims(byAppID["access_token"]?.stringValue)["aud"] == "00000003-0000-0000-c000-000000000000")
    }

    @Test("client credentials with resource answer in the v1 shape")
    func clientCredentials() throws {
        let body = try #require(v1Token([("grant_type", "client_credentials"), ("client_id", Fixtures.daemon),
                                         ("client_secret", "daemon-secret"), ("resource", "https://graph.microsoft.com")]).body)
        #expect(Array(body.keys) == ["token_type", "expires_in", "ext_expires_in", "expires_on", "not_before", "resource", "access_token"])
        let at = Fixtures.claims(body["access_token"]?.stringValue)
        #expect(at["aud"] == "https://graph.microsoft.com" && at["roles"] == ["User.Read.All"] && at["appidacr"] == "1")
        #expect(at["iss"] == .string("https://sts.windows.net/\(Fixtures.contosoID)/"))
    }

    @Test("v1 errors: no resource is 900144, an unknown resource 500011")
    func errors() {
        let missing = v1Token([("grant_type", "password"), ("client_id", Fixtures.mobile), ("username", "alice@contoso.onmicrosoft.com"),
                               ("password", "alice-password")])
        #expect(missing.error?.aadsts == 900144 && missing.error?.message.contains("'resource'") == true)
        #expect(password(resource: "https://nothing.example").error?.aadsts == 500011)
        #expect(password(resource: "api://contoso-api/ x").error != nil)
    }

    @Test("a v1 refresh token redeems for another resource")
    func refreshForAnotherResource() throws {
        let rt = try #require(password(resource: "https://graph.microsoft.com").body?["refresh_token"]?.stringValue)
        let body = try #require(v1Token([("grant_type", "refresh_token"), ("client_id", Fixtures.mobile), ("refresh_token", rt),
                                         ("resource", "api://contoso-api")]).body)
        #expect(body["resource"] == "api://contoso-api")
        #expect(Fixtures.claims(body["access_token"]?.stringValue)["aud"] == .string(Fixtures.api))
    }

    @Test("the v1 authorize endpoint takes resource; its code redeems at the v1 token endpoint for that resource")
    func authorizeWithResource() throws {
        let decision = provider.checkAuthorization(AuthorizationRequest(tenant: Fixtures.contosoID, version: .v1, parameters: [
            ("client_id", Fixtures.mobile), ("redirect_uri", "http://localhost:5000"), ("response_type", "code"),
            ("resource", "api://contoso-api"), ("state", "s"),
        ].map { (name: $0.0, value: $0.1) }))
        guard case .signIn(let validated) = decision else { Issue.record("expected sign-in: \(decision)"); return }
        #expect(validated.version == .v1)
        let tenant = try #require(provider.snapshot().configuration.tenants.first)
        let alice = try #require(tenant.users.first)
        guard case .success(let response) = provider.authorizeEndpoint.authorize(validated, user: alice, tenant: tenant, authTime: Fixtures.now,
                                                               sessionID: "s", context: provider.testScope()),
              let code = response.first(where: { $0.name == "code" })?.value else { Issue.record("no code"); return }
        // Without `resource` in the redemption the code's own resource is used.
        let body = try #require(v1Token([("grant_type", "authorization_code"), ("client_id", Fixtures.mobile), ("code", code),
                                         ("redirect_uri", "http://localhost:5000")]).body)
        #expect(body["resource"] == "api://contoso-api" && body["scope"] == "access_as_user")
        #expect(body["refresh_token"] != nil)
        #expect(Fixtures.claims(body["id_token"]?.stringValue)["ver"] == "1.0")
        #expect(Fixtures.claims(body["access_token"]?.stringValue)["scp"] == "access_as_user")
    }

    @Test("v1 authorize counts only the OpenID Connect scopes of scope: social-auth-core's user_impersonation passes, with or without resource")
    func authorizeIgnoresOtherScopes() throws {
        for resource in ["api://contoso-api", nil] {
            var parameters = [("client_id", Fixtures.mobile), ("redirect_uri", "http://localhost:5000"), ("response_type", "code"),
                              ("scope", "openid profile user_impersonation email"), ("state", "s")]
            if let resource { parameters.append(("resource", resource)) }
            let decision = provider.checkAuthorization(AuthorizationRequest(tenant: Fixtures.contosoID, version: .v1,
                                                                            parameters: parameters.map { (name: $0.0, value: $0.1) }))
            guard case .signIn(let validated) = decision else { Issue.record("expected sign-in: \(decision)"); continue }
            let words = validated.scope.split(separator: " ").map(String.init)
            #expect(!words.contains("user_impersonation") && words.starts(with: ["openid", "profile", "email"]), "\(words)")
        }
        // v2 keeps its rule: a scope that names nothing is refused.
        let v2 = provider.checkAuthorization(AuthorizationRequest(tenant: Fixtures.contosoID, version: .v2, parameters: [
            ("client_id", Fixtures.mobile), ("redirect_uri", "http://localhost:5000"), ("response_type", "code"),
            ("scope", "openid user_impersonation"), ("state", "s"),
        ].map { (name: $0.0, value: $0.1) }))
        guard case .signIn = v2 else { return }
        Issue.record("v2 took user_impersonation")
    }

    @Test("the implicit ID token of the v1 authorize endpoint is a v1 token")
    func implicitV1IDToken() throws {
        let configuration = Self.configuration
        guard case .signIn(let validated) = provider.checkAuthorization(AuthorizationRequest(tenant: Fixtures.contosoID, version: .v1, parameters: [
            ("client_id", Fixtures.mobile), ("redirect_uri", "http://localhost"), ("response_type", "id_token"), ("nonce", "n"),
        ].map { (name: $0.0, value: $0.1) })) else { Issue.record("expected sign-in"); return }
        let tenant = configuration.tenants[0]
        guard case .success(let response) = provider.authorizeEndpoint.authorize(validated, user: tenant.users[0], tenant: tenant, authTime: Fixtures.now,
                                                               sessionID: "s", context: provider.testScope()) else { Issue.record("failed"); return }
        let id = Fixtures.claims(response.first { $0.name == "id_token" }?.value)
        #expect(id["ver"] == "1.0" && id["nonce"] == "n" && id["upn"] == "alice@contoso.onmicrosoft.com")
    }

    @Test("the v1 device code endpoint takes resource and answers verification_url; ADAL's short grant type is v1 only")
    func deviceCode() throws {
        guard case .success(let started) = provider.deviceFlow.deviceAuthorization(
            tenant: Fixtures.contosoID, parameters: [(name: "client_id", value: Fixtures.mobile), (name: "resource", value: "api://contoso-api")],
            version: .v1, context: provider.testScope()) else { Issue.record("device authorization failed"); return }
        #expect(started["verification_url"] == "https://localhost:8443/devicelogin" && started["verification_uri"] == nil)
        guard case .failure(let missing) = provider.deviceFlow.deviceAuthorization(
            tenant: Fixtures.contosoID, parameters: [(name: "client_id", value: Fixtures.mobile)], version: .v1,
            context: provider.testScope()) else { Issue.record("expected a failure"); return }
        #expect(missing.aadsts == 900144 && missing.message.contains("'resource'"))
        let deviceCode = try #require(started["device_code"]?.stringValue)
        let pending = v1Token([("grant_type", "device_code"), ("client_id", Fixtures.mobile), ("code", deviceCode),
                               ("resource", "api://contoso-api")])
        #expect(pending.error?.code == .authorizationPending)
        let v2 = Fixtures.token(provider, [("grant_type", "device_code"), ("client_id", Fixtures.mobile), ("code", deviceCode)])
        #expect(v2.error?.code == .unsupportedGrantType)
    }
}
