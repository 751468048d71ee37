import MockIDPCore
import MockIDPJOSE
import Testing

/// A guest's `client_info` names the user's object in the home tenant and the home tenant (IdentityCore's
/// `MSIDClientInfo.m`, `MSIDAccountIdentifier.m`): found by the guest's home username, or by the home user's email.
@Suite struct GuestHomeAccountTests {
    static let northwind = HomeAccountTests.northwind
    static let litware = HomeAccountTests.litware
    static let homeOID = "5f0c1a2b-3d4e-4f5a-8b6c-7d8e9f0a1b2c"   // configured, not derived
    static let saraOID = "6a1b2c3d-4e5f-4a6b-9c7d-8e9f0a1b2c3d"

    static let configuration = IdentityProviderConfiguration(tenants: [
        Tenant(id: northwind, domains: ["northwind.onmicrosoft.com"],
               users: [User(username: "ivan@northwind.onmicrosoft.com", password: "ivan-password", name: "Ivan Ivanov",
                            objectID: homeOID),
                       User(username: "sara@northwind.onmicrosoft.com", password: "sara-password", name: "Sara Smith",
                            objectID: saraOID, email: "sara.smith@northwind.com")],
               apps: [Application(clientID: HomeAccountTests.mail, type: .public, redirectURIs: ["http://localhost"],
                                  multiTenant: true)]),
        Tenant(id: litware, domains: ["litware.onmicrosoft.com"],
               users: [// A guest configured under his home name rather than an #EXT# name.
                       User(username: "ivan@northwind.onmicrosoft.com", password: "ivan-password", name: "Ivan Ivanov",
                            objectID: User.derivedObjectID(tenantID: litware, username: "ivan"), homeTenantID: northwind),
                       // A guest invited by her mail address, which is her home user's email, not its username.
                       User(username: "sara.smith_northwind.com#EXT#@litware.onmicrosoft.com", password: "sara-password",
                            objectID: User.derivedObjectID(tenantID: litware, username: "sara"),
                            email: "sara.smith@northwind.com", homeTenantID: northwind)],
               apps: [Application(clientID: HomeAccountTests.portal, type: .public, redirectURIs: ["http://localhost"])]),
        // A tenant where Ivan has no account.
        Tenant(id: HomeAccountTests.tailspin, domains: ["tailspin.onmicrosoft.com"],
               users: [User(username: "uma@tailspin.onmicrosoft.com", password: "uma-password",
                            objectID: User.derivedObjectID(tenantID: HomeAccountTests.tailspin, username: "uma"))]),
    ])

    let provider = IdentityProvider(configuration: configuration, signingKeys: [Fixtures.signingKey], clock: .fixed(Fixtures.now))

    func clientInfo(_ username: String, password: String, tenant: String, client: String) throws -> JSONObject {
        let p = [("grant_type", "password"), ("client_id", client), ("username", username), ("password", password),
                 ("client_info", "1"), ("scope", "User.Read openid profile offline_access")]
        let body = provider.token(TokenRequest(tenant: tenant, parameters: p.map { (name: $0.0, value: $0.1) }),
                                  context: provider.testScope()).body
        let text = try #require(body?["client_info"]?.stringValue, "\(String(describing: body))")
        let bytes = try #require(Base64URL.decode(text))
        let value = try JSONValue.parse(bytes)
        return try #require(value.objectValue)
    }

    @Test("a guest under his home name gets the home user's configured object ID, not one derived from the name")
    func homeNameWithConfiguredObjectID() throws {
        let home = try clientInfo("ivan@northwind.onmicrosoft.com", password: "ivan-password", tenant: Self.northwind,
                                  client: HomeAccountTests.mail)
        let guest = try clientInfo("ivan@northwind.onmicrosoft.com", password: "ivan-password", tenant: Self.litware,
                                   client: HomeAccountTests.portal)
        #expect(home == ["uid": .string(Self.homeOID), "utid": .string(Self.northwind)])
        #expect(guest == home)
    }

    @Test("a guest invited by the home user's email finds that user")
    func byHomeEmail() throws {
        let guest = try clientInfo("sara.smith_northwind.com#EXT#@litware.onmicrosoft.com", password: "sara-password",
                                   tenant: Self.litware, client: HomeAccountTests.portal)
        #expect(guest == ["uid": .string(Self.saraOID), "utid": .string(Self.northwind)])
    }

    func token(_ parameters: [(String, String)], tenant: String) -> (body: JSONObject?, error: OAuthError?) {
        let response = provider.token(TokenRequest(tenant: tenant, parameters: parameters.map { (name: $0.0, value: $0.1) }),
                                      context: provider.testScope())
        return (response.body, response.error)
    }

    @Test("a guest's refresh token redeems at home for the home user, and a home token in the inviting tenant")
    func refreshAcrossTenants() throws {
        let signIn = [("grant_type", "password"), ("client_id", HomeAccountTests.mail), ("username", "ivan@northwind.onmicrosoft.com"),
                      ("password", "ivan-password"), ("scope", "User.Read openid profile offline_access")]
        let guest = try #require(token(signIn, tenant: Self.litware).body)
        let home = try #require(token(signIn, tenant: Self.northwind).body)
        func refresh(_ body: JSONObject, at tenant: String) -> (body: JSONObject?, error: OAuthError?) {
            token([("grant_type", "refresh_token"), ("client_id", HomeAccountTests.mail),
                   ("refresh_token", body["refresh_token"]?.stringValue ?? ""), ("scope", "User.Read openid")], tenant: tenant)
        }
        let atHome = Fixtures.claims(try #require(refresh(guest, at: Self.northwind).body)["access_token"]?.stringValue)
        #expect(atHome["tid"] == .string(Self.northwind) && atHome["oid"] == .string(Self.homeOID) && atHome["idp"] == nil)
        let asGuest = Fixtures.claims(try #require(refresh(home, at: Self.litware).body)["access_token"]?.stringValue)
        #expect(asGuest["tid"] == .string(Self.litware) && asGuest["oid"] == .string(User.derivedObjectID(tenantID: Self.litware, username: "ivan")))
        // Sara, invited by her email, is one account too.
        let sara = try #require(token([("grant_type", "password"), ("client_id", HomeAccountTests.mail),
                                       ("username", "sara@northwind.onmicrosoft.com"), ("password", "sara-password"),
                                       ("scope", "User.Read offline_access")], tenant: Self.northwind).body)
        #expect(refresh(sara, at: Self.litware).body != nil)
        #expect(refresh(home, at: "common").body != nil)
        // A tenant where the person has no account refuses the token as Entra refuses a bad refresh token.
        let elsewhere = refresh(home, at: HomeAccountTests.tailspin).error
        #expect(elsewhere?.aadsts == 9002313 && elsewhere?.code == .invalidGrant)
    }
}
