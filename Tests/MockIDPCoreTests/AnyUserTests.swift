import MockIDPCore
import MockIDPJOSE
import Testing

/// Users made on the fly (`signIn: {anyUser: true}`): the sign-in page, the password grant and headless
/// authorize requests, without HTTP.
@Suite struct AnyUserTests {
    let provider: IdentityProvider
    let contoso: Tenant

    init() throws {
        var configuration = Fixtures.configuration
        configuration.tenants[0].signIn = SignInSettings(anyUser: true)
        configuration.tenants[0].domains.append("contoso.com")
        provider = IdentityProvider(configuration: configuration, signingKeys: [Fixtures.signingKey], clock: .fixed(Fixtures.now))
        contoso = configuration.tenants[0]
    }

    private func signIn(_ username: String, _ password: String = "anything", tenant: String = "organizations",
                        claims: ClaimSet? = nil) -> Result<(User, Tenant), OAuthError> {
        provider.signIn.verifyPassword(username: username, password: password, tenantSegment: tenant, claims: claims, directory: provider.snapshot())
    }

    @Test("any name in the tenant's domains signs in with any password, as a user with the derived oid")
    func anyName() throws {
        guard case .success(let (user, tenant)) = signIn("Zoe@Contoso.com", "x") else { Issue.record("refused"); return }
        #expect(tenant.id == Fixtures.contosoID)
        #expect(user.username == "zoe@contoso.com" && user.isMadeOnTheFly)
        #expect(user.objectID == User.derivedObjectID(tenantID: Fixtures.contosoID, username: "zoe@contoso.com"))
        guard case .success(let (again, _)) = signIn("zoe@contoso.com", "another password", tenant: Fixtures.contosoID) else {
            Issue.record("refused the second time"); return
        }
        #expect(again.objectID == user.objectID)
        #expect(provider.signIn.pickableUsers(tenantSegment: Fixtures.contosoID, directory: provider.snapshot()).contains { $0.user.username == "zoe@contoso.com" })
    }

    @Test("configured users keep their passwords; names outside the domains and unknown tenants stay refused")
    func refusals() {
        #expect(signIn("alice@contoso.onmicrosoft.com", "wrong").failure?.aadsts == 50126)
        #expect(signIn("alice@contoso.onmicrosoft.com", "alice-password").failure == nil)
        #expect(signIn("zoe@fabrikam.onmicrosoft.com").failure?.aadsts == 50034)
        #expect(signIn("zoe@contoso.com", tenant: Fixtures.fabrikamID).failure?.aadsts == 50034)
        #expect(signIn("zoe@elsewhere.example").failure?.aadsts == 50034)
        #expect(signIn("zoe@contoso.com", tenant: "nowhere.example").failure?.aadsts == 90002)
        #expect(signIn("@contoso.com").failure?.aadsts == 50034)
        #expect(signIn("zo e@contoso.com").failure?.aadsts == 50034)
        #expect(signIn(String(repeating: "z", count: 65) + "@contoso.com").failure?.aadsts == 50034)
    }

    @Test("a tenant without anyUser makes nobody")
    func offByDefault() {
        let plain = Fixtures.provider()
        #expect(plain.signIn.verifyPassword(username: "zoe@contoso.onmicrosoft.com", password: "x", tenantSegment: "organizations", directory: plain.snapshot())
            .failure?.aadsts == 50034)
        #expect(plain.usersOnTheFly.tenantsMakingUsers(tenantSegment: "organizations", hostScope: .neutral, directory: plain.snapshot()).isEmpty)
        #expect(provider.usersOnTheFly.tenantsMakingUsers(tenantSegment: "organizations", hostScope: .neutral, directory: provider.snapshot()).map(\.id) == [Fixtures.contosoID])
    }

    @Test("each sign-in's claims replace the last ones and reach the tokens; a configured user cannot bring any")
    func claims() throws {
        #expect(signIn("zoe@contoso.com", claims: ["department": "Research", "level": 3]).failure == nil)
        let token = Fixtures.token(provider, [("grant_type", "password"), ("client_id", Fixtures.mobile),
                                              ("username", "zoe@contoso.com"), ("password", "whatever"), ("scope", "openid api://contoso-api/access_as_user")])
        let access = Fixtures.claims(token.body?["access_token"]?.stringValue)
        #expect(access["department"] == "Research" && access["level"] == 3)
        #expect(access["oid"]?.stringValue == User.derivedObjectID(tenantID: Fixtures.contosoID, username: "zoe@contoso.com"))
        #expect(signIn("zoe@contoso.com", claims: [:]).failure == nil)
        let later = Fixtures.token(provider, [("grant_type", "password"), ("client_id", Fixtures.mobile),
                                              ("username", "zoe@contoso.com"), ("password", "p"), ("scope", "openid api://contoso-api/access_as_user")])
        #expect(Fixtures.claims(later.body?["access_token"]?.stringValue)["department"] == nil)
        #expect(signIn("alice@contoso.onmicrosoft.com", "alice-password", claims: ["x": 1]).failure?.aadsts == 90023)
    }

    @Test("the password grant makes the user too")
    func passwordGrant() {
        let token = Fixtures.token(provider, [("grant_type", "password"), ("client_id", Fixtures.mobile),
                                              ("username", "yan@contoso.onmicrosoft.com"), ("password", "p"), ("scope", "openid profile User.Read")])
        #expect(token.error == nil, "\(String(describing: token.error))")
        #expect(Fixtures.claims(token.body?["id_token"]?.stringValue)["preferred_username"] == "yan@contoso.onmicrosoft.com")
    }

    @Test("claims are a bounded JSON object that may not set what the directory decides")
    func claimsRules() {
        #expect((try? UsersOnTheFly.signInClaims(json: " ").get()) == [:])
        #expect((try? UsersOnTheFly.signInClaims(json: #"{"a": [1, {"b": null}]}"#).get()) == ["a": [1, ["b": nil]]])
        for bad in ["[1]", "\"x\"", "{", "{\"oid\": \"x\"}", "{\"tid\": 1, \"iss\": 2}",
                    "{\"a\": \"" + String(repeating: "x", count: UsersOnTheFly.maximumSignInClaimsBytes) + "\"}"] {
            guard case .failure(let problem) = UsersOnTheFly.signInClaims(json: bad) else { Issue.record("accepted \(bad.prefix(40))"); continue }
            #expect(!problem.description.isEmpty)
        }
    }

    @Test("the claims parameter's own members are sign-in claims; a plain OpenID Connect claims request has none")
    func claimsParameter() {
        #expect(UsersOnTheFly.signInClaims(claimsParameter: #"{"access_token": {"xms_cc": {"values": ["cp1"]}}}"#) == nil)
        #expect(UsersOnTheFly.signInClaims(claimsParameter: "not json") == nil)
        #expect((try? UsersOnTheFly.signInClaims(claimsParameter: #"{"id_token": {"auth_time": null}, "team": "blue"}"#)?.get())
            == ["team": "blue"])
        #expect((try? UsersOnTheFly.signInClaims(claimsParameter: "{}")?.get()) == [:])
    }

    @Test("headless: login_hint and a claims parameter with claims of its own sign in a user made on the fly; the pages stay otherwise")
    func headless() throws {
        func decide(_ extra: [(String, String)]) -> String {
            let parameters = [("client_id", Fixtures.mobile), ("redirect_uri", "http://localhost"), ("response_type", "code"),
                              ("scope", "openid")] + extra
            switch provider.checkAuthorization(AuthorizationRequest(tenant: "organizations", parameters: parameters.map { (name: $0.0, value: $0.1) })) {
            case .signIn(let request):
                switch provider.signIn.interaction(for: request, sessionID: nil, hostScope: .neutral, directory: provider.snapshot()) {
                case .headlessSignIn(let user, _): return "headless \(user.username) \(ClaimValue.object(user.claims).jsonString)"
                case .signInPage: return "page"
                default: return "other"
                }
            case .redirectError(let error, _, _, _): return "error \(error.aadsts.map(String.init) ?? "-")"
            case .errorPage(let error): return "error page \(error.aadsts.map(String.init) ?? "-")"
            }
        }
        #expect(decide([("login_hint", "kai@contoso.com"), ("claims", #"{"team": "blue"}"#)]) == #"headless kai@contoso.com {"team":"blue"}"#)
        #expect(decide([("login_hint", "kai@contoso.com")]) == "page")
        #expect(decide([("login_hint", "kai@contoso.com"), ("claims", #"{"access_token": {"xms_cc": {"values": ["cp1"]}}}"#)]) == "page")
        #expect(decide([("login_hint", "kai@contoso.com"), ("claims", #"{"team": "blue"}"#), ("prompt", "login")]) == "page")
        #expect(decide([("login_hint", "alice@contoso.onmicrosoft.com"), ("claims", #"{"team": "blue"}"#)]) == "page")
        #expect(decide([("login_hint", "kai@elsewhere.example"), ("claims", #"{"team": "blue"}"#)]) == "page")
        #expect(decide([("login_hint", "kai@contoso.com"), ("claims", #"{"oid": "x"}"#)]) == "error 90023")
    }
}

