import MockIDPCore
import Testing

/// B2C's sign-in decisions by policy kind (docs/b2c.md), and which page actions each kind admits, without HTTP.
@Suite struct B2CInteractionTests {
    static let tenantID = "a4cf0827-8d79-45b2-ab17-599d4e41cad3"
    static let app = "5e1a7c3b-9d2f-4b6e-8a1c-3f5d7e9b0a2c"
    static let headlessApp = "6f2b8d4c-0e3a-4c7f-9b2d-4a6e8f0c1b3d"
    static let policies = ["B2C_1_susi", "B2C_1_signin", "B2C_1_signup", "B2C_1_passwordreset", "B2C_1_profileedit", "B2C_1_ropc"]

    static let dana = User(username: "dana@fabrikamb2c.onmicrosoft.com", password: "Dana-Passw0rd", name: "Dana Diaz",
                           objectID: User.derivedObjectID(tenantID: tenantID, username: "dana@fabrikamb2c.onmicrosoft.com"))
    static let eve = User(username: "eve@fabrikamb2c.onmicrosoft.com", password: "Eve-Passw0rd", name: "Eve Evans",
                          objectID: User.derivedObjectID(tenantID: tenantID, username: "eve@fabrikamb2c.onmicrosoft.com"))

    let provider: IdentityProvider = {
        var headless = Application(clientID: headlessApp, type: .public, redirectURIs: ["http://localhost"])
        headless.headlessSignIn = true
        let tenant = Tenant(id: tenantID, domains: ["fabrikamb2c.onmicrosoft.com"], b2c: B2CSettings(policies: policies),
                            users: [dana, eve], apps: [Application(clientID: app, type: .public, redirectURIs: ["http://localhost"]), headless])
        return IdentityProvider(configuration: IdentityProviderConfiguration(tenants: [tenant]), signingKeys: [Fixtures.signingKey],
                                clock: .fixed(Fixtures.now))
    }()

    struct CheckFailed: Error { let decision: String }

    func validated(_ policy: String, _ extra: [(String, String)] = [], client: String = app) throws -> ValidatedAuthorization {
        let parameters = [("client_id", client), ("redirect_uri", "http://localhost"), ("response_type", "code"),
                          ("scope", "openid"), ("state", "s")] + extra
        let decision = provider.checkAuthorization(AuthorizationRequest(tenant: "fabrikamb2c.onmicrosoft.com", parameters: parameters.map {
            (name: $0.0, value: $0.1)
        }, policy: policy))
        guard case .signIn(let request) = decision else { throw CheckFailed(decision: "\(decision)") }
        return request
    }

    func session(_ users: User...) -> String {
        let tenant = provider.snapshot().configuration.tenants[0]
        var cookie = provider.sessions.forSignIn(nil)
        for user in users { cookie = provider.sessions.add(SessionAccount(user, of: tenant, authTime: Fixtures.now - 60), to: cookie) }
        return cookie
    }

    func decide(_ policy: String, _ extra: [(String, String)] = [], client: String = app, session: String? = nil) throws -> String {
        switch provider.signIn.b2cInteraction(for: try validated(policy, extra, client: client), sessionID: session, directory: provider.snapshot()) {
        case .answer(let entry): "answer \(entry.user.username)"
        case .headlessSignIn(let user): "headless \(user.username)"
        case .signInPage(let username): "signin \(username ?? "-")"
        case .signUpPage(let email): "signup \(email ?? "-")"
        case .resetPage(let email): "reset \(email ?? "-")"
        case .profilePage(let entry): "profile \(entry.user.username)"
        case .sendError(let error): "error \(error.code.rawValue) \(error.b2c?.code ?? "")"
        }
    }

    @Test("sign-in policies answer from one usable session account, else show the sign-in page with the hint")
    func signInPolicies() throws {
        for policy in ["B2C_1_susi", "B2C_1_signin"] {
            #expect(try decide(policy) == "signin -")
            #expect(try decide(policy, [("login_hint", Self.dana.username)]) == "signin \(Self.dana.username)")
            #expect(try decide(policy, session: session(Self.dana)) == "answer \(Self.dana.username)")
            #expect(try decide(policy, session: session(Self.dana, Self.eve)) == "signin -")
            #expect(try decide(policy, [("login_hint", Self.eve.username)], session: session(Self.dana, Self.eve)) == "answer \(Self.eve.username)")
            #expect(try decide(policy, [("prompt", "login")], session: session(Self.dana)) == "signin -")
        }
    }

    @Test("prompt=none answers from exactly one usable account, else sends login_required to the app")
    func promptNone() throws {
        #expect(try decide("B2C_1_susi", [("prompt", "none")], session: session(Self.dana)) == "answer \(Self.dana.username)")
        #expect(try decide("B2C_1_susi", [("prompt", "none")]).hasPrefix("error login_required"))
        #expect(try decide("B2C_1_susi", [("prompt", "none")], session: session(Self.dana, Self.eve)).hasPrefix("error login_required"))
        #expect(try decide("B2C_1_susi", [("prompt", "none"), ("max_age", "30")], session: session(Self.dana)).hasPrefix("error login_required"))
    }

    @Test("a headlessSignIn app signs the hinted user of the policy's tenant in without a page; an unknown hint gets the page")
    func headless() throws {
        #expect(try decide("B2C_1_susi", [("login_hint", Self.dana.username.uppercased())], client: Self.headlessApp)
                == "headless \(Self.dana.username)")
        #expect(try decide("B2C_1_susi", [("login_hint", "nobody@fabrikamb2c.onmicrosoft.com")], client: Self.headlessApp)
                == "signin nobody@fabrikamb2c.onmicrosoft.com")
        #expect(try decide("B2C_1_susi", [("login_hint", Self.dana.username)]) == "signin \(Self.dana.username)")
    }

    @Test("sign-up and password-reset policies show their form, with the hint as the e-mail address, even with a session")
    func formPolicies() throws {
        #expect(try decide("B2C_1_signup", [("login_hint", "new@example.com")], session: session(Self.dana)) == "signup new@example.com")
        #expect(try decide("B2C_1_passwordreset") == "reset -")
        #expect(try decide("B2C_1_passwordreset", [("login_hint", Self.dana.username)]) == "reset \(Self.dana.username)")
    }

    @Test("profile edit shows the form for the session's one account; no account, several or prompt=login sign in first")
    func profileEdit() throws {
        #expect(try decide("B2C_1_profileedit", session: session(Self.dana)) == "profile \(Self.dana.username)")
        #expect(try decide("B2C_1_profileedit") == "signin -")
        #expect(try decide("B2C_1_profileedit", session: session(Self.dana, Self.eve)) == "signin -")
        #expect(try decide("B2C_1_profileedit", [("prompt", "login")], session: session(Self.dana)) == "signin -")
    }

    @Test("a ROPC policy never reaches a page: its authorize request is sent back with B2C's error")
    func ropc() {
        #expect(throws: CheckFailed.self) { try validated("B2C_1_ropc") }
    }

    @Test("each policy kind admits only the actions its pages send; Cancel everywhere", arguments: PolicyKind.allCases)
    func actions(kind: PolicyKind) {
        let admitted = Set(B2CPageAction.allCases.filter { B2CPageAction($0.rawValue, policy: kind) != nil })
        let expected: Set<B2CPageAction> = switch kind {
        case .signUpOrSignIn: [.signIn, .forgotPassword, .signUpPage, .signUp, .cancel]
        case .signIn: [.signIn, .forgotPassword, .cancel]
        case .signUp: [.signUpPage, .signUp, .cancel]
        case .passwordReset: [.reset, .cancel]
        case .profileEdit: [.signIn, .forgotPassword, .profile, .cancel]
        case .ropc: [.cancel]
        }
        #expect(admitted == expected)
        #expect(B2CPageAction("delete_account", policy: kind) == nil)
    }
}
