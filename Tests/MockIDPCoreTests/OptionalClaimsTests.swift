import MockIDPCore
import MockIDPJOSE
import Testing

/// The manifest's `optionalClaims`: which tokens carry each claim and with which value.
@Suite struct OptionalClaimsTests {
    func provider(idToken: [OptionalClaim] = [], accessToken: [OptionalClaim] = [],
                  profile: JSONObject = [:]) -> IdentityProvider {
        var configuration = Fixtures.configuration
        configuration.tenants[0].apps[0].optionalClaims = OptionalClaims(idToken: idToken)
        configuration.tenants[0].apps[2].optionalClaims = OptionalClaims(accessToken: accessToken)
        configuration.tenants[0].users[0].profile = profile
        return IdentityProvider(configuration: configuration, signingKeys: [Fixtures.signingKey], clock: .fixed(Fixtures.now))
    }

    func tokens(_ provider: IdentityProvider, scope: String = "openid profile api://contoso-api/access_as_user",
                version: ProtocolVersion = .v2, address: String? = "192.0.2.7") -> (id: JSONObject, access: JSONObject) {
        var context = provider.testScope()
        context.clientAddress = address
        var parameters = [("grant_type", "password"), ("client_id", Fixtures.mobile),
                          ("username", "alice@contoso.onmicrosoft.com"), ("password", "alice-password")]
        parameters.append(version == .v1 ? ("resource", "api://contoso-api") : ("scope", scope))
        let body = provider.token(TokenRequest(tenant: Fixtures.contosoID, version: version,
                                               parameters: parameters.map { (name: $0.0, value: $0.1) }), context: context).body
        return (Fixtures.claims(body?["id_token"]?.stringValue), Fixtures.claims(body?["access_token"]?.stringValue))
    }

    @Test("the table: idtyp is for access tokens only; the v2.0-specific set goes into v2.0 tokens, preferred_username into v1.0")
    func table() {
        #expect(OptionalClaim.identityType.tokens == [.accessToken])
        #expect(OptionalClaim.email.tokens == [.idToken, .accessToken])
        #expect(OptionalClaim(rawValue: "ipaddr") == .ipAddress && OptionalClaim.ipAddress.versions == [.v2])
        #expect(OptionalClaim.preferredUsername.versions == [.v1])
        #expect(OptionalClaim.accountStatus.versions == [.v1, .v2])
        #expect(OptionalClaim.allCases.count == 30)
    }

    @Test("an app without optional claims gets none of them")
    func noneByDefault() {
        let (id, access) = tokens(provider())
        for name in ["acct", "ipaddr", "login_hint", "sid", "upn", "given_name", "verified_primary_email", "tenant_region_scope"] {
            #expect(id[name] == nil && access[name] == nil)
        }
        #expect(id["email"] == nil && access["email"] == nil)
    }

    @Test("ID token claims follow the client's idToken list, with Entra's value shapes")
    func idTokenValues() throws {
        let listed: [OptionalClaim] = [.email, .userPrincipalName, .familyName, .givenName, .ipAddress, .authTime, .accountStatus, .country,
                                       .loginHint, .sessionID, .verifiedPrimaryEmail, .emailDomainOwnerVerified, .preferredDataLocation,
                                       .preferredLanguage, .tenantRegionScope, .tenantCountry, .tenantPreferredLanguage]
        let (id, access) = tokens(provider(idToken: listed, profile: ["country": "fr", "preferredDataLocation": "EUR",
                                                                      "preferredLanguage": "en-US", "surname": "Adams-Smith"]))
        #expect(id["email"] == "alice@contoso.com")
        #expect(id["upn"] == "alice@contoso.onmicrosoft.com")
        #expect(id["family_name"] == "Adams-Smith" && id["given_name"] == "Alice")
        #expect(id["ipaddr"] == "192.0.2.7")
        #expect(id["auth_time"] == .int(Fixtures.now))
        #expect(id["acct"] == .int(0))
        #expect(id["ctry"] == "FR")
        #expect(id["verified_primary_email"] == ["alice@contoso.com"])
        #expect(id["xms_edov"] == false)   // contoso.com is not a domain of the tenant (contoso.onmicrosoft.com)
        #expect(id["xms_pdl"] == "EUR" && id["xms_pl"] == "en-us")
        #expect(id["tenant_region_scope"] == "WW")
        // Nothing to fill them with: left out.
        #expect(id["tenant_ctry"] == nil && id["xms_tpl"] == nil)
        let sid = try #require(id["sid"]?.stringValue)
        #expect(GUID.isValid(sid))
        let hint = try #require(id["login_hint"]?.stringValue)
        #expect(hint.hasPrefix("O.") && LoginHint.username(in: hint) == "alice@contoso.onmicrosoft.com")
        // The client's idToken list is not the API's accessToken list.
        #expect(access["ipaddr"] == nil && access["upn"] == nil && access["sid"] == nil)
        // Claims of the struct keep their place: email where v2 ID tokens carry it, before groups and name.
        #expect(id.keys.firstIndex(of: "email")! < id.keys.firstIndex(of: "name")!)
    }

    @Test("access token claims follow the API's accessToken list, not the client's")
    func accessTokenValues() {
        let (id, access) = tokens(provider(accessToken: [.email, .userPrincipalName, .ipAddress, .sessionID, .authTime, .accountStatus]))
        #expect(access["email"] == "alice@contoso.com" && access["upn"] == "alice@contoso.onmicrosoft.com")
        #expect(access["ipaddr"] == "192.0.2.7" && access["auth_time"] == .int(Fixtures.now) && access["acct"] == .int(0))
        #expect(access["sid"] != nil)
        #expect(id["upn"] == nil && id["ipaddr"] == nil)
    }

    @Test("the ID token and access token of one sign-in name the same session")
    func sameSession() {
        let (id, access) = tokens(provider(idToken: [.sessionID], accessToken: [.sessionID]))
        #expect(id["sid"] != nil && id["sid"] == access["sid"])
    }

    @Test("claims left out: no profile scope for upn and names, no address, no email, app-only tokens without a user")
    func leftOut() {
        let noProfile = tokens(provider(idToken: [.userPrincipalName, .givenName, .email]), scope: "openid api://contoso-api/access_as_user")
        #expect(noProfile.id["upn"] == nil && noProfile.id["given_name"] == nil && noProfile.id["email"] == "alice@contoso.com")
        #expect(tokens(provider(idToken: [.ipAddress]), address: nil).id["ipaddr"] == nil)
        var configuration = Fixtures.configuration
        configuration.tenants[0].users[0].email = nil
        configuration.tenants[0].apps[0].optionalClaims = OptionalClaims(idToken: [.email, .verifiedPrimaryEmail, .emailDomainOwnerVerified])
        let (id, _) = tokens(IdentityProvider(configuration: configuration, signingKeys: [Fixtures.signingKey], clock: .fixed(Fixtures.now)))
        #expect(id["email"] == nil && id["verified_primary_email"] == nil && id["xms_edov"] == nil)
        // Client credentials: user claims have no user; the tenant's do.
        let app = provider(accessToken: [.email, .userPrincipalName, .tenantRegionScope])
        let body = Fixtures.token(app, [("grant_type", "client_credentials"), ("client_id", Fixtures.daemon),
                                        ("client_secret", "daemon-secret"), ("scope", "api://contoso-api/.default")]).body
        let access = Fixtures.claims(body?["access_token"]?.stringValue)
        #expect(access["idtyp"] == "app" && access["email"] == nil && access["upn"] == nil && access["tenant_region_scope"] == "WW")
    }

    @Test("v1.0 tokens: the v2.0-specific set stays as v1 has it; preferred_username is added")
    func version1() {
        let (id, access) = tokens(provider(idToken: [.preferredUsername, .ipAddress, .email], accessToken: [.preferredUsername]),
                                  version: .v1)
        #expect(id["ver"] == "1.0" && id["preferred_username"] == "alice@contoso.onmicrosoft.com")
        #expect(id["ipaddr"] == nil && id["email"] == "alice@contoso.com")
        // The API issues v2 access tokens: preferred_username is there already, and the v1-only claim adds nothing.
        #expect(access["ver"] == "2.0" && access["preferred_username"] == "alice@contoso.onmicrosoft.com")
    }

    @Test("an authorize request's login_hint may carry the login_hint claim back")
    func loginHintRoundTrip() throws {
        let (id, _) = tokens(provider(idToken: [.loginHint]))
        let hint = try #require(id["login_hint"]?.stringValue)
        let pairs = [("client_id", Fixtures.mobile), ("redirect_uri", "http://localhost:5000"), ("response_type", "code"),
                     ("scope", "openid"), ("login_hint", hint)]
        guard case .signIn(let request) = provider().checkAuthorization(AuthorizationRequest(
            tenant: Fixtures.contosoID, parameters: pairs.map { (name: $0.0, value: $0.1) })) else {
            Issue.record("expected sign-in"); return
        }
        #expect(request.loginHint == "alice@contoso.onmicrosoft.com")
    }
}
