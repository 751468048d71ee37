import MockIDPCore
import MockIDPJOSE
import Testing

@Suite struct AuthorizationTests {
    let provider = Fixtures.provider()
    static let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    static let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"   // RFC 7636 Appendix B

    func check(_ pairs: [(String, String)], tenant: String = Fixtures.contosoID) -> AuthorizationDecision {
        provider.checkAuthorization(AuthorizationRequest(tenant: tenant, parameters: pairs.map { (name: $0.0, value: $0.1) }))
    }

    func base(redirect: String = "http://localhost:51234") -> [(String, String)] {
        [("client_id", Fixtures.mobile), ("redirect_uri", redirect), ("response_type", "code"),
         ("scope", "User.Read openid profile offline_access"), ("state", "st-1"), ("nonce", "n-1"),
         ("code_challenge", Self.challenge), ("code_challenge_method", "S256"), ("client_info", "1")]
    }

    func errorPageCode(_ d: AuthorizationDecision) -> Int? { if case .errorPage(let e) = d { e.aadsts } else { nil } }
    func redirectedCode(_ d: AuthorizationDecision) -> Int? { if case .redirectError(let e, _, _, _) = d { e.aadsts } else { nil } }

    @Test("loopback redirect URIs match on any port; other URIs only exactly", arguments: [
        ("http://localhost:51234", true), ("http://localhost", true), ("http://localhost:8080/", true),
        ("http://localhost:8080/other", false), ("http://evil.example", false), ("https://localhost", false),
        ("http://localhost.evil.example", false),
    ])
    func loopback(uri: String, accepted: Bool) {
        let d = check(base(redirect: uri))
        if accepted {
            guard case .signIn = d else { Issue.record("\(uri) should be accepted: \(d)"); return }
        } else {
            #expect(errorPageCode(d) == 50011, "\(uri)")
        }
    }

    @Test("unknown clients and unregistered redirect URIs show the error page and never redirect")
    func neverRedirect() {
        var unknown = base()
        unknown[0] = ("client_id", "00000000-0000-0000-0000-0000000000ee")
        #expect(errorPageCode(check(unknown)) == 700016)
        #expect(errorPageCode(check(base(redirect: "https://attacker.example/cb"))) == 50011)
        #expect(errorPageCode(check(base(), tenant: "nowhere.example")) == 90002)
        #expect(errorPageCode(check(base() + [("state", "twice")])) == 9000411)
    }

    @Test("after the redirect URI is verified, errors go back to it with the state")
    func redirectedErrors() {
        var badType = base()
        badType[2] = ("response_type", "magic")
        guard case .redirectError(let e, let uri, let mode, let state) = check(badType) else { Issue.record("expected a redirect"); return }
        #expect(e.code == .unsupportedResponseType && uri == "http://localhost:51234" && mode == .query && state == "st-1")
        var implicit = base()
        implicit[2] = ("response_type", "id_token")
        #expect(redirectedCode(check(implicit)) == 700054)
        #expect(redirectedCode(check(base() + [("prompt", "sometimes")])) == 90023)
        #expect(redirectedCode(check(base().filter { $0.0 != "code_challenge" })) == 900144)
        #expect(redirectedCode(check(base().filter { $0.0 != "scope" })) == 900144)
        #expect(redirectedCode(check(base() + [("response_mode", "carrier_pigeon")])) == 70007)
    }

    func signIn(_ pairs: [(String, String)]) throws -> (ValidatedAuthorization, [(name: String, value: String)]) {
        guard case .signIn(let v) = check(pairs) else { throw OAuthError.invalidAuthorizationCode() }
        let tenant = try #require(provider.snapshot().configuration.tenants.first)
        let alice = try #require(tenant.users.first)
        return (v, try provider.authorizeEndpoint.authorize(v, user: alice, tenant: tenant, authTime: Fixtures.now, sessionID: "sid-1",
                                          context: provider.testScope()).get())
    }

    func redeem(_ code: String, verifier: String? = verifier, redirect: String = "http://localhost:51234",
                client: String = Fixtures.mobile) -> Result<TokenResponse, OAuthError> {
        var form = [("grant_type", "authorization_code"), ("client_id", client), ("code", code), ("redirect_uri", redirect),
                    ("client_info", "1")]
        if let verifier { form.append(("code_verifier", verifier)) }
        return Fixtures.token(provider, form)
    }

    @Test("a code carries state and client_info back, redeems once with PKCE, and the ID token echoes the nonce")
    func codeFlow() throws {
        let (_, response) = try signIn(base())
        #expect(response.map(\.name) == ["code", "client_info", "state", "session_state"])
        let code = try #require(response.first?.value)
        let tokens = redeem(code)
        let body = try #require(tokens.body)
        let id = Fixtures.claims(body["id_token"]?.stringValue)
        #expect(id["nonce"] == "n-1")
        #expect(id["aud"] == .string(Fixtures.mobile))
        #expect(body["refresh_token"] != nil)
        #expect(redeem(code).error?.aadsts == 54005)
    }

    @Test("a wrong PKCE verifier is 501481 and does not spend the code")
    func wrongVerifier() throws {
        let (_, response) = try signIn(base())
        let code = try #require(response.first?.value)
        #expect(redeem(code, verifier: String(repeating: "a", count: 43)).error?.aadsts == 501481)
        #expect(redeem(code, verifier: nil).error?.aadsts == 501481)
        #expect(redeem(code).body != nil)
    }

    @Test("codes bind to their client and redirect URI and expire with tokens.codeLifetime")
    func bindingAndExpiry() throws {
        let clock = ProviderClock.fixed(Fixtures.now)
        let provider = Fixtures.provider(clock: clock)
        guard case .signIn(let v) = provider.checkAuthorization(AuthorizationRequest(tenant: Fixtures.contosoID,
                                                                                   parameters: base().map { (name: $0.0, value: $0.1) })) else {
            Issue.record("expected sign-in"); return
        }
        let tenant = try #require(provider.snapshot().configuration.tenants.first)
        let issued = try provider.authorizeEndpoint.authorize(v, user: tenant.users[0], tenant: tenant, authTime: Fixtures.now, sessionID: "s",
                                            context: provider.testScope()).get()
        let code = try #require(issued.first?.value)
        func redeem(_ redirect: String) -> OAuthError? {
            Fixtures.token(provider, [("grant_type", "authorization_code"), ("client_id", Fixtures.mobile), ("code", code),
                                      ("redirect_uri", redirect), ("code_verifier", Self.verifier)]).error
        }
        #expect(redeem("http://localhost:9999")?.aadsts == 70000)
        #expect(Fixtures.token(provider, [("grant_type", "authorization_code"), ("client_id", Fixtures.daemon),
                                          ("client_secret", "daemon-secret"), ("code", code),
                                          ("redirect_uri", "http://localhost:51234")]).error?.aadsts == 70000)
        clock.advance(by: 301)
        #expect(redeem("http://localhost:51234")?.aadsts == 70008)
        #expect(Fixtures.token(provider, [("grant_type", "authorization_code"), ("client_id", Fixtures.mobile),
                                          ("code", "1.Aforged"), ("redirect_uri", "http://localhost:51234")]).error?.aadsts == 70000)
    }

    @Test("plain PKCE and max_age with auth_time")
    func plainAndMaxAge() throws {
        let plain = String(repeating: "p", count: 50)
        var pairs = base().filter { !$0.0.hasPrefix("code_challenge") }
        pairs += [("code_challenge", plain), ("max_age", "600")]
        let (v, response) = try signIn(pairs)
        #expect(v.codeChallengeMethod == "plain")
        let code = try #require(response.first?.value)
        let body = try #require(redeem(code, verifier: plain).body)
        #expect(Fixtures.claims(body["id_token"]?.stringValue)["auth_time"] == .int(Fixtures.now))
    }

    @Test("hybrid code id_token needs the app's ID-token setting and carries c_hash of the code")
    func hybrid() throws {
        var pairs = base()
        pairs[2] = ("response_type", "code id_token")
        #expect(redirectedCode(check(pairs)) == 700054)
        var config = Fixtures.configuration
        config.tenants[0].apps[0].enableIDTokenIssuance = true
        let provider = IdentityProvider(configuration: config, signingKeys: [Fixtures.signingKey], clock: .fixed(Fixtures.now))
        guard case .signIn(let v) = provider.checkAuthorization(AuthorizationRequest(tenant: Fixtures.contosoID,
                                                                                   parameters: pairs.map { (name: $0.0, value: $0.1) })) else {
            Issue.record("expected sign-in"); return
        }
        #expect(v.responseMode == .fragment)
        let tenant = config.tenants[0]
        let response = try provider.authorizeEndpoint.authorize(v, user: tenant.users[0], tenant: tenant, authTime: Fixtures.now, sessionID: "s",
                                              context: provider.testScope()).get()
        #expect(response.map(\.name) == ["code", "id_token", "client_info", "state", "session_state"])
        let code = try #require(response.first?.value)
        let claims = Fixtures.claims(response[1].value)
        #expect(claims["nonce"] == "n-1")
        #expect(claims["c_hash"] == .string(Base64URL.encode(Digest.sha256(Array(code.utf8)).prefix(16))))
        var noOpenID = pairs.filter { $0.0 != "scope" }
        noOpenID.append(("scope", "User.Read"))
        guard case .redirectError = provider.checkAuthorization(AuthorizationRequest(tenant: Fixtures.contosoID,
                                                                                   parameters: noOpenID.map { (name: $0.0, value: $0.1) })) else {
            Issue.record("id_token without openid must fail"); return
        }
    }

    @Test("a tamper fault reaches the ID token of a hybrid response: the c_hash is wrong, the nonce and signature intact")
    func hybridTamper() throws {
        var pairs = base()
        pairs[2] = ("response_type", "code id_token")
        var config = Fixtures.configuration
        config.tenants[0].apps[0].enableIDTokenIssuance = true
        let provider = IdentityProvider(configuration: config, signingKeys: [Fixtures.signingKey], clock: .fixed(Fixtures.now))
        _ = provider.controls.add(TamperFault(defect: .badCodeHash, token: .id, clientID: Fixtures.mobile))
        guard case .signIn(let v) = provider.checkAuthorization(AuthorizationRequest(tenant: Fixtures.contosoID,
                                                                                   parameters: pairs.map { (name: $0.0, value: $0.1) })) else {
            Issue.record("expected sign-in"); return
        }
        let tenant = config.tenants[0]
        let response = try provider.authorizeEndpoint.authorize(v, user: tenant.users[0], tenant: tenant, authTime: Fixtures.now, sessionID: "s",
                                              context: provider.testScope()).get()
        let code = try #require(response.first?.value)
        let token = response[1].value
        let claims = Fixtures.claims(token)
        #expect(claims["nonce"] == "n-1")
        #expect(claims["c_hash"] != nil && claims["c_hash"] != .string(Base64URL.encode(Digest.sha256(Array(code.utf8)).prefix(16))))
        #expect(try CompactJWS(token).verify(with: Fixtures.signingKey.privateKey.publicKey))
        #expect(provider.controls.pendingTamperFaults.isEmpty)
    }
}
