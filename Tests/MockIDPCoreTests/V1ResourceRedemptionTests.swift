import MockIDPCore
import Testing

/// The v1 token endpoint redeems a code, refresh token or device code for the `resource` it was issued for when the
/// request names none, and reads `scope` only for its OpenID Connect meaning: what ADAL for iOS and macOS sends
/// (`scope=openid`, no `resource`, `client_info=1`) gets the resource's token with a refresh token and an ID token.
@Suite struct V1ResourceRedemptionTests {
    static let redirectURI = "msauth.com.contoso.mobile://auth"
    /// The default fixtures, the public client an iOS app with a delegated scope on the API and on Graph.
    static let configuration: IdentityProviderConfiguration = {
        var c = Fixtures.configuration
        c.tenants[0].apps[0].redirectURIs.append(redirectURI)
        c.tenants[0].apps[0].apiPermissions = [APIPermission(resource: "api://contoso-api", values: ["access_as_user"]),
                                               APIPermission(resource: "https://graph.microsoft.com", values: ["User.Read"])]
        return c
    }()
    let provider = IdentityProvider(configuration: configuration, signingKeys: [Fixtures.signingKey], clock: .fixed(Fixtures.now))

    func v1Token(_ pairs: [(String, String)]) -> Result<TokenResponse, OAuthError> {
        provider.token(TokenRequest(tenant: Fixtures.contosoID, version: .v1, parameters: pairs.map { (name: $0.0, value: $0.1) }),
                       context: provider.testScope())
    }

    /// A code from the v1 authorize endpoint for `resource`, Alice signed in.
    func code(resource: String) throws -> String {
        let decision = provider.checkAuthorization(AuthorizationRequest(tenant: Fixtures.contosoID, version: .v1, parameters: [
            ("response_type", "code"), ("client_id", Fixtures.mobile), ("redirect_uri", Self.redirectURI), ("resource", resource),
            ("login_hint", "alice@contoso.onmicrosoft.com"), ("state", "s"), ("haschrome", "1"),
        ].map { (name: $0.0, value: $0.1) }))
        guard case .signIn(let validated) = decision else { throw OAuthError.invalidAuthorizationCode() }
        let tenant = try #require(provider.snapshot().configuration.tenants.first)
        guard case .success(let response) = provider.authorizeEndpoint.authorize(validated, user: tenant.users[0], tenant: tenant, authTime: Fixtures.now,
                                                               sessionID: "s", context: provider.testScope()),
              let code = response.first(where: { $0.name == "code" })?.value else { throw OAuthError.invalidAuthorizationCode() }
        return code
    }

    /// ADAL for iOS and macOS (`requestTokenByCode:`): no `resource`, `client_info=1`, `scope` when it has one.
    func adalRedemption(_ code: String, scope: String?) -> Result<TokenResponse, OAuthError> {
        var pairs = [("grant_type", "authorization_code"), ("code", code), ("client_id", Fixtures.mobile),
                     ("redirect_uri", Self.redirectURI), ("client_info", "1")]
        if let scope { pairs.append(("scope", scope)) }
        return v1Token(pairs)
    }

    @Test("a v1 code redeemed with scope=openid and no resource is for the code's resource, with refresh and ID token",
          arguments: ["https://graph.microsoft.com/", "api://contoso-api"])
    func codeWithOpenIDScope(resource: String) throws {
        let body = try #require(adalRedemption(try code(resource: resource), scope: "openid").body)
        #expect(body["resource"] == .string(resource))
        #expect(body["refresh_token"] != nil && body["client_info"] != nil)
        let id = Fixtures.claims(body["id_token"]?.stringValue)
        #expect(id["ver"] == "1.0" && id["aud"] == .string(Fixtures.mobile) && id["upn"] == "alice@contoso.onmicrosoft.com")
        let at = Fixtures.claims(body["access_token"]?.stringValue)
        if resource.hasPrefix("api://") {
            #expect(at["aud"] == .string(Fixtures.api) && at["scp"] == "access_as_user" && body["scope"] == "access_as_user")
        } else {
            // Graph is a v1 API: `aud` is the resource exactly as the authorize request sent it.
            #expect(at["aud"] == .string(resource) && at["scp"] == "User.Read" && body["scope"] == "User.Read")
        }
    }

    @Test("the same redemption without scope (ADAL 6's interactive flow) gets the same tokens")
    func codeWithoutScope() throws {
        let body = try #require(adalRedemption(try code(resource: "https://graph.microsoft.com"), scope: nil).body)
        #expect(body["resource"] == "https://graph.microsoft.com" && body["refresh_token"] != nil && body["id_token"] != nil)
        #expect(Fixtures.claims(body["access_token"]?.stringValue)["aud"] == "https://graph.microsoft.com")
    }

    @Test("scope names no API at the v1 endpoint: openid with other words beside it changes nothing")
    func scopeNamesNoAPI() throws {
        let body = try #require(adalRedemption(try code(resource: "api://contoso-api"), scope: "openid profile User.Read").body)
        #expect(body["resource"] == "api://contoso-api")
        #expect(Fixtures.claims(body["access_token"]?.stringValue)["aud"] == .string(Fixtures.api))
    }

    @Test("a resource in the redemption still wins over the code's (v1 codes are multi-resource)")
    func resourceInTheRedemption() throws {
        let body = try #require(v1Token([("grant_type", "authorization_code"), ("code", try code(resource: "api://contoso-api")),
                                         ("client_id", Fixtures.mobile), ("redirect_uri", Self.redirectURI),
                                         ("resource", "https://graph.microsoft.com"), ("scope", "openid")]).body)
        #expect(body["resource"] == "https://graph.microsoft.com")
        #expect(Fixtures.claims(body["access_token"]?.stringValue)["aud"] == "https://graph.microsoft.com")
    }

    @Test("ADAL's refresh (resource and scope=openid) is for that resource; without resource, for the refresh token's")
    func refresh() throws {
        let first = try #require(adalRedemption(try code(resource: "api://contoso-api"), scope: "openid").body)
        let rt = try #require(first["refresh_token"]?.stringValue)
        // ADALAcquireTokenSilentHandler: grant_type, refresh_token, client_id, client_info=1, resource, scope=openid.
        let graph = try #require(v1Token([("grant_type", "refresh_token"), ("refresh_token", rt), ("client_id", Fixtures.mobile),
                                          ("client_info", "1"), ("resource", "https://graph.microsoft.com"), ("scope", "openid")]).body)
        #expect(graph["resource"] == "https://graph.microsoft.com" && graph["refresh_token"] != nil && graph["id_token"] != nil)
        #expect(Fixtures.claims(graph["access_token"]?.stringValue)["aud"] == "https://graph.microsoft.com")
        // The new refresh token is Graph's: redeemed with scope=openid alone, it buys Graph again.
        let again = try #require(graph["refresh_token"]?.stringValue)
        let silent = try #require(v1Token([("grant_type", "refresh_token"), ("refresh_token", again), ("client_id", Fixtures.mobile),
                                           ("scope", "openid")]).body)
        #expect(silent["resource"] == "https://graph.microsoft.com" && silent["refresh_token"] != nil)
        let api = try #require(v1Token([("grant_type", "refresh_token"), ("refresh_token", rt), ("client_id", Fixtures.mobile),
                                        ("scope", "openid")]).body)
        #expect(api["resource"] == "api://contoso-api" && Fixtures.claims(api["access_token"]?.stringValue)["aud"] == .string(Fixtures.api))
    }

    @Test("at the v2 endpoint a v1 grant's refresh token keeps v2's rule: scope decides")
    func v2RefreshOfAV1Grant() throws {
        let rt = try #require(adalRedemption(try code(resource: "api://contoso-api"), scope: "openid").body?["refresh_token"]?.stringValue)
        let body = try #require(Fixtures.token(provider, [("grant_type", "refresh_token"), ("refresh_token", rt),
                                                          ("client_id", Fixtures.mobile), ("scope", "openid")]).body)
        #expect(body["scope"] == "openid" && body["refresh_token"] == nil)
    }

    @Test("a v1 device code polled without resource gets the resource it was started for")
    func deviceCode() throws {
        guard case .success(let started) = provider.deviceFlow.deviceAuthorization(
            tenant: Fixtures.contosoID, parameters: [(name: "client_id", value: Fixtures.mobile), (name: "resource", value: "api://contoso-api")],
            version: .v1, context: provider.testScope()) else { Issue.record("device authorization failed"); return }
        let tenant = try #require(provider.snapshot().configuration.tenants.first)
        provider.deviceFlow.completeDeviceLogin(userCode: try #require(started["user_code"]?.stringValue), user: tenant.users[0], tenant: tenant)
        let deviceCode = try #require(started["device_code"]?.stringValue)
        let body = try #require(v1Token([("grant_type", "device_code"), ("client_id", Fixtures.mobile), ("code", deviceCode),
                                         ("scope", "openid")]).body)
        #expect(body["resource"] == "api://contoso-api" && body["refresh_token"] != nil)
        #expect(Fixtures.claims(body["access_token"]?.stringValue)["aud"] == .string(Fixtures.api))
    }
}
