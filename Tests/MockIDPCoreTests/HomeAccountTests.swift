import MockIDPCore
import MockIDPJOSE
import Testing

/// The same person across apps, endpoint versions and tenants (the ADAL/MSAL single sign-on document), and guests.
@Suite struct HomeAccountTests {
    static let northwind = "ca2e06db-632b-44e1-a5f8-0ac4cb9047f2"
    static let litware = "2fc7ded4-0f77-4684-a587-ba98ed032ec2"
    static let tailspin = "1e30e516-ce16-4888-97e3-109a5af0ac12"
    static let mail = "3c1b6f9a-4bc6-4d72-8e69-0a201c584bed"
    static let portal = "87c45d77-3f00-4574-9d7b-403327fb8089"
    static let guestName = "ivan_northwind.onmicrosoft.com#EXT#@litware.onmicrosoft.com"

    static let configuration = IdentityProviderConfiguration(tenants: [
        Tenant(id: northwind, domains: ["northwind.onmicrosoft.com"],
               users: [User(username: "ivan@northwind.onmicrosoft.com", password: "ivan-password", name: "Ivan Ivanov",
                            objectID: User.derivedObjectID(tenantID: northwind, username: "ivan@northwind.onmicrosoft.com"))],
               apps: [Application(clientID: mail, type: .public, redirectURIs: ["http://localhost"])]),
        Tenant(id: litware, domains: ["litware.onmicrosoft.com"],
               users: [User(username: guestName, password: "ivan-password", name: "Ivan Ivanov",
                            objectID: User.derivedObjectID(tenantID: litware, username: guestName),
                            email: "ivan@northwind.onmicrosoft.com", homeTenantID: northwind),
                       // A guest whose home tenant is not configured here.
                       User(username: "uma_tailspin.com#EXT#@litware.onmicrosoft.com", password: "uma-password",
                            objectID: User.derivedObjectID(tenantID: litware, username: "uma"), homeTenantID: tailspin)],
               apps: [Application(clientID: portal, type: .public, redirectURIs: ["http://localhost"])]),
    ])

    let provider = IdentityProvider(configuration: configuration, signingKeys: [Fixtures.signingKey], clock: .fixed(Fixtures.now))

    func signIn(_ username: String, password: String = "ivan-password", tenant: String, client: String,
                version: ProtocolVersion = .v2) -> JSONObject? {
        var p = [("grant_type", "password"), ("client_id", client), ("username", username), ("password", password), ("client_info", "1")]
        p.append(version == .v2 ? ("scope", "User.Read openid profile offline_access") : ("resource", "https://graph.microsoft.com"))
        return provider.token(TokenRequest(tenant: tenant, version: version, parameters: p.map { (name: $0.0, value: $0.1) }),
                              context: provider.testScope()).body
    }

    func clientInfo(_ body: JSONObject?) -> JSONObject {
        guard let text = body?["client_info"]?.stringValue, let bytes = Base64URL.decode(text),
              let value = try? JSONValue.parse(bytes) else { return [:] }
        return value.objectValue ?? [:]
    }

    @Test("a member has the same oid, client_info and sign-in name from v1 and v2 endpoints and across apps")
    func memberAcrossAppsAndVersions() throws {
        let provider = Fixtures.provider()
        func signIn(_ client: String, _ secret: String?, _ version: ProtocolVersion) throws -> JSONObject {
            var p = [("grant_type", "password"), ("client_id", client), ("username", "alice@contoso.onmicrosoft.com"),
                     ("password", "alice-password"), ("client_info", "1")]
            if let secret { p.append(("client_secret", secret)) }
            p.append(version == .v2 ? ("scope", "User.Read openid profile") : ("resource", "https://graph.microsoft.com"))
            return try #require(provider.token(TokenRequest(tenant: "organizations", version: version,
                                                            parameters: p.map { (name: $0.0, value: $0.1) }),
                                               context: provider.testScope()).body)
        }
        let v2 = try signIn(Fixtures.mobile, nil, .v2)
        let v1 = try signIn(Fixtures.mobile, nil, .v1)
        let other = try signIn(Fixtures.shared, nil, .v2)
        let ids = [v2, v1, other].map { Fixtures.claims($0["id_token"]?.stringValue) }
        #expect(ids.map { $0["oid"] } == Array(repeating: .string(Fixtures.aliceOID), count: 3))
        let expected: JSONObject = ["uid": .string(Fixtures.aliceOID), "utid": .string(Fixtures.contosoID)]
        #expect([v2, v1, other].map { clientInfo($0) } == [expected, expected, expected])
        #expect(ids[0]["preferred_username"] == "alice@contoso.onmicrosoft.com")
        #expect(ids[1]["upn"] == "alice@contoso.onmicrosoft.com" && ids[1]["unique_name"] == "alice@contoso.onmicrosoft.com")
        #expect(ids[2]["preferred_username"] == "alice@contoso.onmicrosoft.com")
        // `sub` is pairwise: it differs between the two apps, never for one app.
        #expect(ids[0]["sub"] == ids[1]["sub"] && ids[0]["sub"] != ids[2]["sub"])
    }

    @Test("a guest signs in to the inviting tenant with their home name: resource tid, home idp and client_info")
    func guestInResourceTenant() throws {
        let home = try #require(signIn("ivan@northwind.onmicrosoft.com", tenant: Self.northwind, client: Self.mail))
        let guest = try #require(signIn("ivan@northwind.onmicrosoft.com", tenant: "litware.onmicrosoft.com", client: Self.portal))
        let homeID = Fixtures.claims(home["id_token"]?.stringValue)
        let guestID = Fixtures.claims(guest["id_token"]?.stringValue)
        let homeOID = User.derivedObjectID(tenantID: Self.northwind, username: "ivan@northwind.onmicrosoft.com")
        #expect(homeID["tid"] == .string(Self.northwind) && homeID["idp"] == nil && homeID["oid"] == .string(homeOID))
        #expect(guestID["tid"] == .string(Self.litware))
        #expect(guestID["oid"] == .string(User.derivedObjectID(tenantID: Self.litware, username: Self.guestName)))
        #expect(guestID["idp"] == .string("https://sts.windows.net/\(Self.northwind)/"))
        #expect(guestID["preferred_username"] == "ivan@northwind.onmicrosoft.com")
        #expect(guestID["email"] == "ivan@northwind.onmicrosoft.com")
        // Entra: client_info names the home account, so MSAL's home_account_id is the same in both tenants.
        #expect(clientInfo(guest) == clientInfo(home))
        #expect(clientInfo(guest) == ["uid": .string(homeOID), "utid": .string(Self.northwind)])
        let at = Fixtures.claims(guest["access_token"]?.stringValue)
        #expect(at["tid"] == .string(Self.litware) && at["idp"] == .string("https://sts.windows.net/\(Self.northwind)/"))
    }

    @Test("a guest's v1 tokens carry the home name in unique_name and no upn")
    func guestV1() throws {
        let body = try #require(signIn("ivan@northwind.onmicrosoft.com", tenant: Self.litware, client: Self.portal, version: .v1))
        for token in ["id_token", "access_token"] {
            let claims = Fixtures.claims(body[token]?.stringValue)
            #expect(claims["unique_name"] == "ivan@northwind.onmicrosoft.com", "\(token)")
            #expect(claims["upn"] == nil, "\(token)")
            #expect(claims["idp"] == .string("https://sts.windows.net/\(Self.northwind)/"), "\(token)")
        }
    }

    @Test("the guest's #EXT# name signs in too; a wrong password is 50126; /organizations goes to the home tenant")
    func guestNames() throws {
        let byEXT = try #require(signIn(Self.guestName, tenant: Self.litware, client: Self.portal))
        #expect(Fixtures.claims(byEXT["id_token"]?.stringValue)["tid"] == .string(Self.litware))
        let wrong = provider.token(TokenRequest(tenant: Self.litware, parameters: [
            ("grant_type", "password"), ("client_id", Self.portal), ("username", "ivan@northwind.onmicrosoft.com"),
            ("password", "nope"), ("scope", "User.Read"),
        ].map { (name: $0.0, value: $0.1) }), context: provider.testScope())
        #expect(wrong.error?.aadsts == 50126)
        // Without a tenant in the path, the home tenant answers (the app must be registered there).
        let organizations = try #require(signIn("ivan@northwind.onmicrosoft.com", tenant: "organizations", client: Self.mail))
        #expect(Fixtures.claims(organizations["id_token"]?.stringValue)["tid"] == .string(Self.northwind))
    }

    @Test("a guest whose home tenant is not configured gets the object ID that tenant would derive")
    func unconfiguredHome() throws {
        let body = try #require(signIn("uma@tailspin.com", password: "uma-password", tenant: Self.litware, client: Self.portal))
        #expect(clientInfo(body) == ["uid": .string(User.derivedObjectID(tenantID: Self.tailspin, username: "uma@tailspin.com")),
                                     "utid": .string(Self.tailspin)])
        #expect(Fixtures.claims(body["id_token"]?.stringValue)["preferred_username"] == "uma@tailspin.com")
    }

    @Test("the sign-in page accepts a guest's home name")
    func signInPage() throws {
        guard case .success(let (user, tenant)) = provider.signIn.verifyPassword(username: "IVAN@northwind.onmicrosoft.com", password: "ivan-password",
                                                                         tenantSegment: "litware.onmicrosoft.com", directory: provider.snapshot()) else {
            Issue.record("sign-in failed"); return
        }
        #expect(user.username == Self.guestName && tenant.id == Self.litware)
    }
}
