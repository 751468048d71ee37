import MockIDPCore
import MockIDPJOSE
import Testing

/// The `groups` claim as the app manifest's `groupMembershipClaims` asks for it, and Entra's overage form.
extension Result {
    var failure: Failure? { if case .failure(let e) = self { e } else { nil } }
}

extension String {
    /// The string followed by zeros up to `width` characters.
    func padding(_ width: Int) -> String { self + String(repeating: "0", count: max(0, width - count)) }
}

@Suite struct GroupClaimsTests {
    func provider(groups: Int, manifest: GroupMembershipClaims, securityEnabled: Bool = true) -> IdentityProvider {
        var configuration = Fixtures.configuration
        let ids = (0..<groups).map { n in "00000000-0000-4000-8000-" + String(String(n).reversed()).padding(12).reversed() }
        configuration.tenants[0].users[0].groups = ids
        configuration.tenants[0].groups = ids.map { Group(id: $0, securityEnabled: securityEnabled) }
        configuration.tenants[0].apps[0].groupMembershipClaims = manifest
        configuration.tenants[0].apps[2].groupMembershipClaims = manifest
        return IdentityProvider(configuration: configuration, signingKeys: [Fixtures.signingKey], clock: .fixed(Fixtures.now))
    }

    func tokens(_ provider: IdentityProvider, scope: String = "openid profile api://contoso-api/access_as_user") -> (id: JSONObject, access: JSONObject) {
        let body = Fixtures.token(provider, [("grant_type", "password"), ("client_id", Fixtures.mobile),
                                             ("username", "alice@contoso.onmicrosoft.com"), ("password", "alice-password"),
                                             ("scope", scope)]).body
        return (Fixtures.claims(body?["id_token"]?.stringValue), Fixtures.claims(body?["access_token"]?.stringValue))
    }

    @Test("no groups claim unless the manifest asks for one (Entra's default is None)")
    func noneByDefault() {
        let (id, access) = tokens(provider(groups: 3, manifest: .none))
        #expect(id["groups"] == nil && access["groups"] == nil && id["_claim_names"] == nil)
    }

    @Test("SecurityGroup counts security groups only; All counts every group")
    func kinds() {
        #expect(tokens(provider(groups: 2, manifest: .securityGroup, securityEnabled: false)).id["groups"] == nil)
        #expect(tokens(provider(groups: 2, manifest: .all, securityEnabled: false)).id["groups"]?.arrayValue?.count == 2)
        #expect(tokens(provider(groups: 2, manifest: .securityGroup)).access["groups"]?.arrayValue?.count == 2)
    }

    @Test("200 groups fit; 201 become _claim_names and _claim_sources naming getMemberObjects, in v1 and v2 tokens")
    func overage() {
        #expect(tokens(provider(groups: 200, manifest: .securityGroup)).id["groups"]?.arrayValue?.count == 200)
        let (id, access) = tokens(provider(groups: 201, manifest: .securityGroup))
        let endpoint = "https://graph.windows.net/\(Fixtures.contosoID)/users/\(Fixtures.aliceOID)/getMemberObjects"
        for claims in [id, access] {
            #expect(claims["groups"] == nil)
            #expect(claims["_claim_names"] == ["groups": "src1"])
            #expect(claims["_claim_sources"] == ["src1": ["endpoint": .string(endpoint)]])
        }
        #expect(access["ver"] == "2.0")
        // The API (accessTokenVersion 2) asks for groups; a v1 ID token from the v1 endpoint carries the same form.
        let v1 = Fixtures.claims(provider(groups: 201, manifest: .securityGroup).token(
            TokenRequest(tenant: Fixtures.contosoID, version: .v1, parameters: [
                (name: "grant_type", value: "password"), (name: "client_id", value: Fixtures.mobile),
                (name: "username", value: "alice@contoso.onmicrosoft.com"), (name: "password", value: "alice-password"),
                (name: "resource", value: "api://contoso-api")])).body?["id_token"]?.stringValue)
        #expect(v1["ver"] == "1.0" && v1["_claim_sources"] != nil && v1["groups"] == nil)
    }

    @Test("a front-channel ID token (hybrid, in the URL fragment) carries 6 groups, and hasgroups instead of 7")
    func implicitLimit() throws {
        for (count, expectGroups) in [(6, true), (7, false)] {
            var configuration = Fixtures.configuration
            let ids = (0..<count).map { n in "00000000-0000-4000-8000-00000000000\(n)" }
            configuration.tenants[0].users[0].groups = ids
            configuration.tenants[0].apps[0].groupMembershipClaims = .securityGroup
            configuration.tenants[0].apps[0].enableIDTokenIssuance = true
            let provider = IdentityProvider(configuration: configuration, signingKeys: [Fixtures.signingKey], clock: .fixed(Fixtures.now))
            let pairs = [("client_id", Fixtures.mobile), ("redirect_uri", "http://localhost:5000"), ("response_type", "code id_token"),
                         ("scope", "openid profile"), ("nonce", "n-1")]
            guard case .signIn(let v) = provider.checkAuthorization(AuthorizationRequest(
                tenant: Fixtures.contosoID, parameters: pairs.map { (name: $0.0, value: $0.1) })) else {
                Issue.record("expected sign-in"); return
            }
            let tenant = configuration.tenants[0]
            let response = try provider.authorizeEndpoint.authorize(v, user: tenant.users[0], tenant: tenant, authTime: Fixtures.now, sessionID: "s",
                                                  context: provider.testScope()).get()
            let claims = Fixtures.claims(response.first { $0.name == "id_token" }?.value)
            #expect((claims["groups"]?.arrayValue?.count == count) == expectGroups)
            #expect((claims["hasgroups"] == true) == !expectGroups)
            #expect(claims["_claim_names"] == nil)
        }
    }

    @Test("Graph's own tokens carry no groups, whatever the client's manifest")
    func graphTokens() {
        let (_, access) = tokens(provider(groups: 2, manifest: .all), scope: "User.Read")
        #expect(access["aud"] == "00000003-0000-0000-c000-000000000000" && access["groups"] == nil)
    }
}

@Suite struct UserPhotoTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        + [0, 0, 0, 96, 0, 0, 0, 48, 8, 2, 0, 0, 0]
    // SOI, an APP0 segment, then SOF0 with height 120 and width 240.
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x4A, 0x46, 0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x78, 0x00, 0xF0,
                                0x01, 0x01, 0x11, 0x00, 0xFF, 0xD9]

    @Test("PNG and JPEG are told by their magic bytes, their size read from the header")
    func readsHeaders() throws {
        let png = try UserPhoto.read(source: "a.png", bytes: Self.png).get()
        #expect(png.mediaType == "image/png" && png.width == 96 && png.height == 48)
        let jpeg = try UserPhoto.read(source: "a.jpg", bytes: Self.jpeg).get()
        #expect(jpeg.mediaType == "image/jpeg" && jpeg.width == 240 && jpeg.height == 120)
    }

    @Test("other files, cut-off headers and huge files are refused with a reason")
    func refuses() {
        #expect(UserPhoto.read(source: "x", bytes: Array("GIF89a".utf8)).failure == .notAnImage)
        #expect(UserPhoto.read(source: "x", bytes: Array(Self.png.prefix(20))).failure == .truncated)
        #expect(UserPhoto.read(source: "x", bytes: Array(Self.jpeg.prefix(12))).failure == .truncated)
        #expect(UserPhoto.read(source: "x", bytes: Self.png + Array(repeating: 0, count: UserPhoto.maximumBytes)).failure == .tooLarge)
    }
}
