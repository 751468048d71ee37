import MockIDPCore
import Testing

/// Consent (docs/sign-in.md, "Consent"): an app with `consentRequired` gets delegated permissions only once the user
/// consented, per user, app and API; the grants with no page answer AADSTS65001.
@Suite struct ConsentTests {
    static let asking = "5e0c7a3b-9d21-4f4e-8b6a-3c2d1e0f9a8b"
    static let middle = "8d4b2f6e-1c3a-4e5d-9f7b-6a5c4d3e2b1a"
    let provider: IdentityProvider
    let contoso: Tenant
    let alice: User
    let bob: User

    init() throws {
        var configuration = Fixtures.configuration
        var app = Application(clientID: Self.asking, name: "Contoso Notes", type: .public, redirectURIs: ["http://localhost"],
                              apiPermissions: [APIPermission(resource: "api://contoso-api", values: ["access_as_user", "Reader"])])
        app.consentRequired = true
        var middle = Application(clientID: Self.middle, name: "Middle", type: .confidential, secret: "middle-secret",
                                 identifierURIs: ["api://contoso-middle"], scopes: ["access_as_user"],
                                 apiPermissions: [APIPermission(resource: "https://graph.microsoft.com", values: ["User.Read"])])
        middle.consentRequired = true
        configuration.tenants[0].apps += [app, middle]
        provider = IdentityProvider(configuration: configuration, signingKeys: [Fixtures.signingKey], clock: .fixed(Fixtures.now))
        contoso = configuration.tenants[0]
        alice = Fixtures.alice
        bob = Fixtures.bob
    }

    func password(_ scope: String, client: String = Self.asking, username: String = "alice@contoso.onmicrosoft.com") -> Result<TokenResponse, OAuthError> {
        Fixtures.token(provider, [("grant_type", "password"), ("client_id", client), ("username", username),
                                  ("password", username.hasPrefix("alice") ? "alice-password" : "bob-password"), ("scope", scope)])
    }

    func consent(_ scope: String, user: User? = nil, client: String = Self.asking) throws {
        let app = try #require(contoso.apps.first { $0.clientID == client })
        let asked = try #require(provider.consentPolicy.askedPermissions(client: app, scope: scope, tenant: contoso, context: provider.testScope()))
        provider.consents.grant(asked, client: app, user: user ?? alice, tenant: contoso)
    }

    @Test("ROPC without consent is AADSTS65001 invalid_grant with suberror consent_required; after consent it succeeds")
    func passwordNeedsConsent() throws {
        let refused = try #require(password("User.Read openid profile offline_access").error)
        #expect(refused.code == .invalidGrant && refused.aadsts == 65001 && refused.suberror == .consentRequired && refused.status == 400)
        #expect(refused.message.contains("'\(Self.asking)' named 'Contoso Notes'"))
        #expect(refused.reason.contains("User.Read") && refused.reason.contains("openid"))
        try consent("User.Read openid profile offline_access")
        #expect(password("User.Read openid profile offline_access").body?["access_token"] != nil)
        // Fewer scopes than were granted need nothing more.
        #expect(password("User.Read").body != nil)
    }

    @Test("an app without consentRequired stands for tenant-wide admin consent: nobody is asked")
    func noConsentRequired() {
        #expect(password("User.Read openid profile offline_access", client: Fixtures.mobile).body != nil)
    }

    @Test("a grant covers one user, one app and one API; the OpenID Connect scopes need consent too")
    func grantCoverage() throws {
        try consent("User.Read")
        #expect(password("User.Read").body != nil)
        // The OpenID Connect scopes are Graph permissions of their own.
        #expect(password("User.Read openid").error?.reason.contains("openid") == true)
        // Another user.
        let forBob = try #require(password("User.Read", username: "bob@contoso.onmicrosoft.com").error)
        #expect(forBob.aadsts == 65001 || forBob.aadsts == 50076)
        #expect(provider.consents.all.allSatisfy { $0.username == alice.username })
        // Another API.
        #expect(password("api://contoso-api/access_as_user").error?.aadsts == 65001)
        // Consenting again adds nothing.
        try consent("User.Read", client: Self.asking)
        let grants = provider.consents.all
        #expect(grants.count == 1 && grants.first?.resourceID == "00000003-0000-0000-c000-000000000000" && grants.first?.scopes == ["User.Read"])
    }

    @Test("scopes granted accumulate: each consent adds to the user's grant for the API")
    func scopesAccumulate() throws {
        try consent("User.Read")
        try consent("Mail.Read openid")
        #expect(password("User.Read Mail.Read openid").body != nil)
        #expect(password("user.read MAIL.READ").body != nil)
        #expect(password("Mail.Send").error?.aadsts == 65001)
        let graph = try #require(provider.consents.all.first)
        #expect(graph.scopes == ["User.Read", "openid", "Mail.Read"])
    }

    @Test(".default asks for the permissions the app registers on that API")
    func defaultScope() throws {
        #expect(password("api://contoso-api/.default").error?.reason.contains("access_as_user") == true)
        try consent("api://contoso-api/access_as_user")
        #expect(password("api://contoso-api/.default").body != nil)
        #expect(password("api://contoso-api/access_as_user").body != nil)
    }

    @Test("a refresh for scopes the user never consented to is AADSTS65001; the consented ones refresh")
    func refreshNeedsConsent() throws {
        try consent("User.Read offline_access")
        let refreshToken = try #require(password("User.Read offline_access").body?["refresh_token"]?.stringValue)
        func refresh(_ scope: String?) -> Result<TokenResponse, OAuthError> {
            var parameters = [("grant_type", "refresh_token"), ("client_id", Self.asking), ("refresh_token", refreshToken)]
            if let scope { parameters.append(("scope", scope)) }
            return Fixtures.token(provider, parameters)
        }
        #expect(refresh(nil).body != nil)
        let refused = try #require(refresh("Mail.Read offline_access").error)
        #expect(refused.aadsts == 65001 && refused.suberror == .consentRequired)
        provider.consents.revoke(username: "ALICE@contoso.onmicrosoft.com", clientID: Self.asking)
        #expect(refresh(nil).error?.aadsts == 65001)
    }

    @Test("on-behalf-of: a middle tier with consentRequired needs the user's consent to its downstream permissions")
    func onBehalfOf() throws {
        let incoming = try #require(password("api://contoso-middle/access_as_user", client: Fixtures.mobile).body?["access_token"]?.stringValue)
        func exchange() -> Result<TokenResponse, OAuthError> {
            Fixtures.token(provider, [("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("client_id", Self.middle),
                                      ("client_secret", "middle-secret"), ("assertion", incoming), ("scope", "User.Read"),
                                      ("requested_token_use", "on_behalf_of")])
        }
        let refused = try #require(exchange().error)
        #expect(refused.aadsts == 65001 && refused.suberror == .consentRequired && refused.reason.contains("has not consented"))
        try consent("https://graph.microsoft.com/.default", client: Self.middle)
        #expect(exchange().body?["access_token"] != nil)
    }

    @Test("the authorize flow asks for what is missing; prompt=consent asks for everything; B2C and other apps ask nothing")
    func authorizeAsks() throws {
        func validated(_ extra: [(String, String)] = [], client: String = Self.asking) throws -> ValidatedAuthorization {
            let parameters = [("client_id", client), ("redirect_uri", "http://localhost"), ("response_type", "code"),
                              ("scope", "openid profile User.Read")] + extra
            let decision = provider.checkAuthorization(AuthorizationRequest(tenant: Fixtures.contosoID,
                                                                            parameters: parameters.map { (name: $0.0, value: $0.1) }))
            guard case .signIn(let request) = decision else { throw InteractionTests.CheckFailed(decision: "\(decision)") }
            return request
        }
        let request = try validated()
        #expect(provider.consentPolicy.consentToAsk(request, user: alice, tenant: contoso, context: provider.testScope()).map(\.scope) == ["openid", "profile", "User.Read"])
        try consent("openid User.Read")
        #expect(provider.consentPolicy.consentToAsk(request, user: alice, tenant: contoso, context: provider.testScope()).map(\.scope) == ["profile"])
        try consent("profile")
        #expect(provider.consentPolicy.consentToAsk(request, user: alice, tenant: contoso, context: provider.testScope()).isEmpty)
        let again = try validated([("prompt", "consent")])
        #expect(provider.consentPolicy.consentToAsk(again, user: alice, tenant: contoso, context: provider.testScope()).count == 3)
        #expect(provider.consentPolicy.consentToAsk(try validated(client: Fixtures.mobile), user: alice, tenant: contoso, context: provider.testScope()).isEmpty)
    }

    @Test("the consent page words Graph's permissions as Entra does, and an app's scopes by the app's name")
    func words() {
        func words(_ resource: String, _ scope: String) -> String {
            provider.consentPolicy.permissionWords(DelegatedPermission(resourceID: resource, scope: scope), tenant: contoso, context: provider.testScope())
        }
        let graph = "00000003-0000-0000-c000-000000000000"
        #expect(words(graph, "User.Read") == "Sign you in and read your profile")
        #expect(words(graph, "openid") == "Sign you in")
        #expect(words(graph, "offline_access") == "Maintain access to data you have given it access to")
        #expect(words(graph, "Sites.Read.All") == "Sites.Read.All (Microsoft Graph)")
        #expect(words(Fixtures.api, "access_as_user") == "Access \(Fixtures.api) (access_as_user)")
        #expect(words(Self.middle, "access_as_user") == "Access Middle (access_as_user)")
        #expect(words("797f4846-ba00-4fd7-ba43-dac1f8f63013", "user_impersonation") == "Access Azure Resource Manager as you")
    }

    @Test("reset forgets every consent; revoking selects by user and app")
    func resetAndRevoke() throws {
        try consent("User.Read")
        try consent("User.Read", client: Self.middle)
        try consent("User.Read", user: bob)
        #expect(provider.consents.all.count == 3)
        #expect(provider.consents.revoke(clientID: Self.middle.uppercased()) == 1)
        #expect(provider.consents.revoke(username: "bob@contoso.onmicrosoft.com") == 1)
        #expect(provider.consents.all.count == 1)
        provider.reset()
        #expect(provider.consents.all.isEmpty)
        #expect(password("User.Read").error?.aadsts == 65001)
    }

    @Test("a grant's scopes stay within Graph's 3,850 characters: consenting to ever more scopes drops the oldest")
    func grantBounded() throws {
        // Graph permission names are letters and dots: number them in letters.
        func letters(_ n: Int) -> String {
            var n = n, text = ""
            repeat {
                text.append(Character(UnicodeScalar(UInt8(97 + n % 26))))
                n /= 26
            } while n > 0
            return text
        }
        var consented: [String] = []
        for batch in 0..<40 {
            let scopes = (0..<20).map { "Scope\(letters(batch * 20 + $0)).ReadWrite.All" }
            consented += scopes
            try consent(scopes.joined(separator: " "))
        }
        let graph = try #require(provider.consents.all.first { $0.resourceID == "00000003-0000-0000-c000-000000000000" })
        #expect(graph.scopes.joined(separator: " ").utf8.count <= 3_850)
        // The newest are kept, in the order they were granted.
        #expect(graph.scopes.last == consented.last && graph.scopes == Array(consented.suffix(graph.scopes.count)))
        #expect(graph.scopes.count > 100)
    }
}
