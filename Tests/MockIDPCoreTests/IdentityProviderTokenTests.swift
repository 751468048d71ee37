import MockIDPCore
import MockIDPJOSE
import Testing

@Suite struct IdentityProviderTokenTests {
    let provider = Fixtures.provider()

    func clientCredentials(_ scope: String, secret: String = "daemon-secret", tenant: String = Fixtures.contosoID) -> Result<TokenResponse, OAuthError> {
        Fixtures.token(provider, tenant: tenant, [("grant_type", "client_credentials"), ("client_id", Fixtures.daemon),
                                                  ("client_secret", secret), ("scope", scope)])
    }

    @Test("client credentials give an app token whose roles come from apiPermissions")
    func clientCredentialsRoles() throws {
        let body = try #require(clientCredentials("api://contoso-api/.default").body)
        #expect(body["token_type"] == "Bearer")
        #expect(body["expires_in"] == 3600)
        #expect(body["scope"] == nil && body["refresh_token"] == nil && body["id_token"] == nil)
        let claims = Fixtures.claims(body["access_token"]?.stringValue)
        #expect(claims["aud"] == .string(Fixtures.api))
        #expect(claims["roles"] == ["Reader", "Writer"])
        #expect(claims["iss"] == .string("https://localhost:8443/\(Fixtures.contosoID)/v2.0"))
        #expect(claims["exp"] == .int(Fixtures.now + 3600))
        #expect(claims["azpacr"] == "1")
        #expect(claims["ver"] == "2.0")
    }

    @Test("the signature verifies with the published key and the header carries kid")
    func signatureVerifies() throws {
        let token = try #require(clientCredentials("api://contoso-api/.default").body?["access_token"]?.stringValue)
        let jws = try CompactJWS(token)
        #expect(jws.header["kid"] == .string(Fixtures.signingKey.keyID))
        #expect(jws.header["alg"] == "RS256")
        #expect(jws.verify(with: Fixtures.signingKey.certificate.publicKey))
    }

    @Test("Graph's .default gives a version 1 token for https://graph.microsoft.com")
    func graphDefault() throws {
        let claims = Fixtures.claims(clientCredentials("https://graph.microsoft.com/.default").body?["access_token"]?.stringValue)
        #expect(claims["aud"] == "https://graph.microsoft.com")
        #expect(claims["iss"] == .string("https://sts.windows.net/\(Fixtures.contosoID)/"))
        #expect(claims["roles"] == ["User.Read.All"])
        #expect(claims["appid"] == .string(Fixtures.daemon))
    }

    @Test("client credentials errors are Entra's", arguments: [
        ("api://contoso-api/Reader", 1002012, .invalidScope),
        ("api://nothing/.default", 500011, .invalidResource),
        ("api://contoso-api/.default openid", 1002012, .invalidScope),
        ("api://contoso-api/.default  api://contoso-api/.default", 1002012, .invalidScope),
        ("   ", 1002012, .invalidScope),
        ("api://contoso-api/.default ", 1002012, .invalidScope),
        ("/.default", 500011, .invalidResource),
        ("api://contoso\"api/.default", 70011, .invalidScope),
        ("api://contoso-\u{E9}pi/.default", 70011, .invalidScope),
    ] as [(String, Int, OAuthError.Code)])
    func clientCredentialsErrors(scope: String, code: Int, error: OAuthError.Code) {
        let e = clientCredentials(scope).error
        #expect(e?.aadsts == code)
        #expect(e?.code == error)
    }

    @Test("client credentials: spaces before the one .default word, and resources named in any case (aud as named)",
          arguments: [("  api://contoso-api/.default", Fixtures.api), ("API://Contoso-API/.default", Fixtures.api),
                      ("HTTPS://GRAPH.MICROSOFT.COM/.default", "HTTPS://GRAPH.MICROSOFT.COM"),
                      ("00000003-0000-0000-C000-000000000000/.default", "00000003-0000-0000-C000-000000000000")])
    func clientCredentialsScopeSpellings(scope: String, audience: String) {
        let response = clientCredentials(scope)
        #expect(response.error == nil, "\(scope): \(String(describing: response.error))")
        #expect(Fixtures.claims(response.body?["access_token"]?.stringValue)["aud"] == .string(audience))
    }

    @Test("a wrong secret is invalid_client 7000215 with status 401: another text, the secret with 256 characters more, or its first part",
          arguments: ["nope", "daemon-secret" + String(repeating: "x", count: 256), "daemon-secre"])
    func wrongSecret(secret: String) {
        let e = clientCredentials("api://contoso-api/.default", secret: secret).error
        #expect(e?.aadsts == 7000215 && e?.status == 401 && e?.code == .invalidClient, "\(secret.count) characters")
    }

    @Test("a missing secret is 7000218 and a public client sending one is 700025")
    func missingAndPublicSecrets() {
        let missing = Fixtures.token(provider, [("grant_type", "client_credentials"), ("client_id", Fixtures.daemon),
                                                ("scope", "api://contoso-api/.default")]).error
        #expect(missing?.aadsts == 7000218)
        let publicSecret = Fixtures.token(provider, [("grant_type", "password"), ("client_id", Fixtures.mobile), ("client_secret", "x"),
                                                     ("username", "alice@contoso.onmicrosoft.com"), ("password", "alice-password"),
                                                     ("scope", "User.Read")]).error
        #expect(publicSecret?.aadsts == 700025)
    }

    @Test("unknown clients, tenants, grant types and duplicate parameters")
    func requestErrors() {
        #expect(Fixtures.token(provider, [("grant_type", "client_credentials"), ("client_id", "00000000-0000-0000-0000-000000000001"),
                                          ("client_secret", "x"), ("scope", "api://contoso-api/.default")]).error?.aadsts == 700016)
        #expect(Fixtures.token(provider, tenant: "nowhere.example", [("grant_type", "password")]).error?.aadsts == 90002)
        #expect(Fixtures.token(provider, [("grant_type", "magic")]).error?.code == .unsupportedGrantType)
        #expect(Fixtures.token(provider, [("client_id", "x")]).error?.aadsts == 900144)
        #expect(Fixtures.token(provider, [("grant_type", "password"), ("grant_type", "password")]).error?.aadsts == 9000411)
        #expect(Fixtures.token(provider, tenant: "common", [("grant_type", "client_credentials"), ("client_id", Fixtures.daemon),
                                                             ("client_secret", "daemon-secret"),
                                                             ("scope", "api://contoso-api/.default")]).error?.aadsts == 50059)
    }

    /// Up to 16 parameters are searched in order, more go into a dictionary: both find the first repeated name, and
    /// both answer the grant alike.
    @Test("a repeated parameter is named whether the form is short or long, and a long form otherwise works")
    func duplicatesInShortAndLongForms() {
        let grant: [(String, String)] = [("grant_type", "client_credentials"), ("client_id", Fixtures.daemon),
                                         ("client_secret", "daemon-secret"), ("scope", "api://contoso-api/.default")]
        let padding = (0..<20).map { ("x_pad\($0)", "v") }
        for extra in [Array(padding.prefix(4)), padding] {
            let form = grant + extra
            #expect(Fixtures.token(provider, form).body?["access_token"] != nil, "\(form.count) parameters")
            let repeated = form + [("x_pad1", "again"), ("scope", "again")]
            let error = Fixtures.token(provider, repeated).error
            #expect(error?.aadsts == 9000411, "\(repeated.count) parameters")
            #expect(error?.message.contains("'x_pad1'") == true)
        }
    }

    func password(_ username: String, _ password: String, scope: String = "api://contoso-api/access_as_user openid profile offline_access",
                  tenant: String = "organizations", client: String = Fixtures.mobile) -> Result<TokenResponse, OAuthError> {
        Fixtures.token(provider, tenant: tenant, [("grant_type", "password"), ("client_id", client), ("username", username),
                                                  ("password", password), ("scope", scope), ("client_info", "1")])
    }

    @Test("the password grant on /organizations finds the tenant from the username and issues all three tokens")
    func passwordGrant() throws {
        let body = try #require(password("Alice@Contoso.onmicrosoft.com", "alice-password").body)
        #expect(body["scope"] == "api://contoso-api/access_as_user openid profile offline_access")
        let id = Fixtures.claims(body["id_token"]?.stringValue)
        #expect(id["aud"] == .string(Fixtures.mobile))
        #expect(id["oid"] == .string(Fixtures.aliceOID))
        #expect(id["tid"] == .string(Fixtures.contosoID))
        #expect(id["preferred_username"] == "alice@contoso.onmicrosoft.com")
        #expect(id["department"] == "Sales")
        #expect(id["sub"]?.stringValue?.count == 43)
        let access = Fixtures.claims(body["access_token"]?.stringValue)
        #expect(access["scp"] == "access_as_user")
        #expect(access["roles"] == ["Reader"])
        #expect(access["azpacr"] == "0")
        let clientInfo = try #require(body["client_info"]?.stringValue)
        let info = try #require(Base64URL.decode(clientInfo))
        #expect(try JSONValue.parse(info) == ["uid": .string(Fixtures.aliceOID), "utid": .string(Fixtures.contosoID)])
        #expect(body["refresh_token"]?.stringValue?.isEmpty == false)
    }

    @Test("password grant errors: bad password 50126, unknown user 50034, MFA 50076 with basic_action, bad scope 70011")
    func passwordErrors() {
        #expect(password("alice@contoso.onmicrosoft.com", "wrong").error?.aadsts == 50126)
        #expect(password("nobody@contoso.onmicrosoft.com", "x").error?.aadsts == 50034)
        let mfa = password("bob@contoso.onmicrosoft.com", "bob-password").error
        #expect(mfa?.aadsts == 50076 && mfa?.suberror == .basicAction)
        #expect(password("alice@contoso.onmicrosoft.com", "alice-password", scope: "api://contoso-api/nope").error?.aadsts == 70011)
        #expect(password("alice@contoso.onmicrosoft.com", "alice-password", scope: "User.Read api://contoso-api/access_as_user").error?.aadsts == 28000)
    }

    @Test("a multi-tenant app registered elsewhere signs users in to another tenant")
    func multiTenantApp() {
        #expect(password("alice@contoso.onmicrosoft.com", "alice-password", scope: "User.Read", client: Fixtures.shared).body != nil)
    }

    @Test("refresh tokens work for their client, not for another, and expire with tokens.refreshLifetime")
    func refreshTokens() throws {
        let clock = ProviderClock.fixed(Fixtures.now)
        let provider = Fixtures.provider(clock: clock)
        let first = Fixtures.token(provider, tenant: "organizations", [
            ("grant_type", "password"), ("client_id", Fixtures.mobile), ("username", "alice@contoso.onmicrosoft.com"),
            ("password", "alice-password"), ("scope", "User.Read offline_access openid"),
        ])
        let rt = try #require(first.body?["refresh_token"]?.stringValue)
        let refreshed = Fixtures.token(provider, [("grant_type", "refresh_token"), ("client_id", Fixtures.mobile), ("refresh_token", rt),
                                                  ("scope", "User.Read openid")])
        #expect(refreshed.body?["access_token"] != nil)
        #expect(Fixtures.claims(refreshed.body?["access_token"]?.stringValue)["scp"] == "openid User.Read")
        let other = Fixtures.token(provider, [("grant_type", "refresh_token"), ("client_id", Fixtures.daemon),
                                              ("client_secret", "daemon-secret"), ("refresh_token", rt)])
        #expect(other.error?.aadsts == 70000)
        let bogus = Fixtures.token(provider, [("grant_type", "refresh_token"), ("client_id", Fixtures.mobile), ("refresh_token", "1.Anope")])
        #expect(bogus.error?.aadsts == 9002313)
        clock.advance(by: 7201)
        let expired = Fixtures.token(provider, [("grant_type", "refresh_token"), ("client_id", Fixtures.mobile), ("refresh_token", rt)])
        #expect(expired.error?.aadsts == 700082)
        #expect(expired.error?.suberror == .badToken)
    }

    @Test("error bodies carry Entra's fields")
    func errorBody() {
        let e = OAuthError.invalidPassword()
        let body = e.responseBody(traceID: "t", correlationID: "c", timestamp: "2026-01-01 00:00:00Z")
        #expect(body["error"] == "invalid_grant")
        #expect(body["error_codes"] == [50126])
        #expect(body["error_description"]?.stringValue?.hasPrefix("AADSTS50126: ") == true)
        #expect(body["error_uri"] == "https://login.microsoftonline.com/error?code=50126")
        #expect(body["correlation_id"] == "c")
    }
}
