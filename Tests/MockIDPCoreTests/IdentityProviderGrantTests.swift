import MockIDPCore
import MockIDPJOSE
import Testing

/// Client assertions at the edges of the clock, family refresh tokens, and offline minting, with a fixed clock.
@Suite struct IdentityProviderGrantTests {
    static let certificateApp = "6b7c8d9e-0f1a-4b2c-8d3e-4f5a6b7c8d9e"
    static let mail = "3f4a5b6c-7d8e-4f9a-8b1c-2d3e4f5a6b7c"
    static let calendar = "4a5b6c7d-8e9f-4a0b-9c2d-3e4f5a6b7c8d"
    static let audience = "https://localhost:8443/\(Fixtures.contosoID)/oauth2/v2.0/token"

    /// The app's certificate, valid for ten years (the fixed clock stands in January 2027).
    static let key: SigningKey = {
        do {
            return try SigningKey.generate(validityDays: 3650)
        } catch {
            preconditionFailure("test key generation failed: \(error)")
        }
    }()

    /// The test process's signing key, a 30-day certificate already expired by the fixed clock, is registered too.
    static func provider() -> IdentityProvider {
        let provider = Fixtures.provider()
        var app = Application(clientID: certificateApp, type: .confidential,
                              certificates: [ClientCertificate(source: "test", pem: key.certificate.pem),
                                             ClientCertificate(source: "expired", pem: Fixtures.signingKey.certificate.pem)],
                              apiPermissions: [APIPermission(resource: "api://contoso-api", values: ["Reader"])])
        app.name = "Certificate App"
        provider.served.upsertApp(app, tenant: Fixtures.contosoID)
        for id in [mail, calendar] {
            var family = Application(clientID: id, type: .public, redirectURIs: ["http://localhost"])
            family.foci = true
            provider.served.upsertApp(family, tenant: Fixtures.contosoID)
        }
        return provider
    }

    static func assertion(exp: Double, nbf: Double? = nil, signer: SigningKey = key) throws -> String {
        var payload: JSONObject = ["aud": .string(audience), "iss": .string(certificateApp), "sub": .string(certificateApp),
                                   "exp": .double(exp), "iat": .int(Fixtures.now)]
        if let nbf { payload["nbf"] = .double(nbf) }
        return try JSONWebSignature.sign(
            header: ["typ": "JWT", "x5t#S256": .string(Base64URL.encode(signer.certificate.sha256Thumbprint))],
            payload: payload, key: signer.privateKey, algorithm: .ps256)
    }

    static func clientCredentials(_ provider: IdentityProvider, assertion: String) -> Result<TokenResponse, OAuthError> {
        Fixtures.token(provider, [("grant_type", "client_credentials"), ("client_id", certificateApp),
                                  ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"),
                                  ("client_assertion", assertion), ("scope", "api://contoso-api/.default")])
    }

    @Test("a client assertion may be five minutes past exp or before nbf, not a second more; its certificate must be valid")
    func assertionClockSkew() throws {
        let provider = Self.provider()
        let now = Double(Fixtures.now)
        #expect(Self.clientCredentials(provider, assertion: try Self.assertion(exp: now - 300)).body != nil)
        #expect(Self.clientCredentials(provider, assertion: try Self.assertion(exp: now + 600, nbf: now + 300)).body != nil)
        let late = try #require(Self.clientCredentials(provider, assertion: try Self.assertion(exp: now - 301.5)).error)
        #expect(late.aadsts == 700024 && late.status == 401)
        #expect(late.message.contains("Current time: 2027-01-15T08:00:00.0000000Z"))
        #expect(late.message.contains("assertion valid from 1970-01-01T00:00:00.0000000Z"))
        let early = try #require(Self.clientCredentials(provider, assertion: try Self.assertion(exp: now + 600, nbf: now + 302)).error)
        #expect(early.aadsts == 700024)
        let expiredCertificate = try Self.assertion(exp: now + 600, signer: Fixtures.signingKey)
        let outside = try #require(Self.clientCredentials(provider, assertion: expiredCertificate).error)
        #expect(outside.aadsts == 1000502 && outside.status == 401)
    }

    @Test("a family refresh token serves every family public client; others get client_mismatch")
    func familyRefreshToken() throws {
        let provider = Self.provider()
        let first = try #require(Fixtures.token(provider, [
            ("grant_type", "password"), ("client_id", Self.mail), ("username", "alice@contoso.onmicrosoft.com"),
            ("password", "alice-password"), ("scope", "User.Read offline_access")]).body)
        #expect(first["foci"] == "1")
        let token = try #require(first["refresh_token"]?.stringValue)
        func refresh(_ client: String) -> Result<TokenResponse, OAuthError> {
            Fixtures.token(provider, [("grant_type", "refresh_token"), ("client_id", client), ("refresh_token", token)])
        }
        #expect(refresh(Self.calendar).body?["foci"] == "1")
        #expect(refresh(Self.mail).body != nil)
        let outsider = try #require(refresh(Fixtures.mobile).error)
        #expect(outsider.aadsts == 70000 && outsider.additionalInfo == ["client_mismatch"])
        let body = outsider.responseBody(traceID: "t", correlationID: "c", timestamp: "now")
        #expect(body["error_additional_info"] == ["client_mismatch"])
    }

    @Test("a minted token has exactly the claims the token endpoint puts in the same grant's token")
    func mintedShape() throws {
        let provider = Fixtures.provider()
        let issued = try #require(Fixtures.token(provider, [
            ("grant_type", "password"), ("client_id", Fixtures.mobile), ("username", "alice@contoso.onmicrosoft.com"),
            ("password", "alice-password"), ("scope", "api://contoso-api/access_as_user openid profile")]).body)
        let request = MintRequest(kind: .access, tenant: "contoso.onmicrosoft.com", clientID: Fixtures.mobile,
                                  username: "alice@contoso.onmicrosoft.com", scopes: ["api://contoso-api/access_as_user"],
                                  baseURL: "https://localhost:8443")
        let minted = Fixtures.claims(try provider.minting.mint(request).get())
        let access = Fixtures.claims(issued["access_token"]?.stringValue)
        #expect(minted.members.map(\.key) == access.members.map(\.key))
        for name in ["aud", "iss", "exp", "azp", "azpacr", "oid", "scp", "sub", "tid", "ver", "department"] {
            #expect(minted[name] == access[name], "\(name)")
        }
        var id = request
        id.kind = .id
        id.scopes = ["openid", "profile"]
        let mintedID = Fixtures.claims(try provider.minting.mint(id).get())
        let issuedID = Fixtures.claims(issued["id_token"]?.stringValue)
        #expect(mintedID.members.map(\.key) == issuedID.members.map(\.key))
        #expect(mintedID["sub"] == issuedID["sub"] && mintedID["aud"] == .string(Fixtures.mobile))
    }

    @Test("minted claims override, lifetimes apply, and unknown names get the token endpoint's errors")
    func mintOptions() throws {
        let provider = Fixtures.provider()
        var request = MintRequest(kind: .access, tenant: Fixtures.contosoID, clientID: Fixtures.daemon,
                                  scopes: ["api://contoso-api/.default"],
                                  claims: [("roles", #"["Admin"]"#), ("note", "plain text"), ("n", "1.5")],
                                  lifetime: 90, baseURL: "http://idp.test:9")
        let claims = Fixtures.claims(try provider.minting.mint(request).get())
        #expect(claims["roles"] == ["Admin"] && claims["note"] == "plain text" && claims["n"] == 1.5)
        #expect(claims["exp"] == .int(Fixtures.now + 90) && claims["idtyp"] == "app")
        #expect(claims["iss"] == .string("http://idp.test:9/\(Fixtures.contosoID)/v2.0"))
        request.scopes = ["api://contoso-api/Reader"]
        #expect(provider.minting.mint(request).error?.aadsts == 1002012)
        request.clientID = "00000000-0000-4000-8000-000000000000"
        #expect(provider.minting.mint(request).error?.aadsts == 700016)
        request.tenant = "nowhere.example"
        #expect(provider.minting.mint(request).error?.aadsts == 90002)
    }
}

extension Result where Success == String, Failure == OAuthError {
    var error: OAuthError? { if case .failure(let e) = self { e } else { nil } }
}
