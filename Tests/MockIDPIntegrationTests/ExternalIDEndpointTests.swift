import Foundation
import MockIDPConfiguration
import MockIDPCore
import MockIDPJOSE
import MockIDPTesting
import Testing

/// Microsoft Entra External ID in both modes against config/examples/external-id.yaml: the issuer at ciamlogin and
/// custom hosts, the refusals (a workforce tenant at a ciamlogin name, the password grant), and sign-up on the pages
/// with the code read from the outbox through MockIDPTesting.
@Suite struct ExternalIDEndpointTests {
    static let tenantID = "3c8a9e41-6f2b-4d7c-a5e0-9b1d2f3a4c5e"
    static let domain = "woodgrovecustomers.onmicrosoft.com"
    static let mobile = "4b2e6c8a-1d3f-4a5b-9c7e-2f4a6b8c0d1e"
    static let daemon = "2a4c6e8f-7b9d-4f1a-b3c5-5e7f9a1b3d6c"
    static let contoso = "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11"
    static let ciamIssuer = "https://\(tenantID).ciamlogin.com/\(tenantID)/v2.0"

    static func configuration() throws -> IdentityProviderConfiguration {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try ConfigurationLoader.load(paths: ["config/default.yaml", "config/examples/external-id.yaml"]
            .map { root.appendingPathComponent($0).path })
    }

    static func claims(_ token: String?) -> JSONValue { B2CEndpointTests.claims(token) }

    @Test("at a ciamlogin name or a custom domain the issuer is the tenant GUID's ciamlogin host; elsewhere the request's",
          arguments: MockIdentityProviderMode.allCases, [
        ("woodgrovecustomers.ciamlogin.com", ciamIssuer), ("\(tenantID).ciamlogin.com", ciamIssuer),
        ("login.woodgrove.com", ciamIssuer), ("idp.test", "http://idp.test/\(tenantID)/v2.0"),
    ])
    func issuer(mode: MockIdentityProviderMode, site: (String, String)) async throws {
        let (host, issuer) = site
        try await withMockIdentityProvider(configuration: .value(try Self.configuration()), mode: mode) { idp in
            for tenant in [Self.tenantID, Self.domain] {
                let d = try await idp.get("/\(tenant)/v2.0/.well-known/openid-configuration", headers: ["Host": host])
                #expect(d.status == 200, "\(d.text)")
                #expect(d.json["issuer"] == .string(issuer))
                #expect(d.json["token_endpoint"] == .string("http://\(host)/\(Self.tenantID)/oauth2/v2.0/token"))
            }
            let keys = try await idp.get("/\(Self.tenantID)/discovery/v2.0/keys", headers: ["Host": host])
            #expect(keys.json["keys"]?.arrayValue?.first?["issuer"] == .string(issuer))
            let token = try await idp.postForm("/\(Self.tenantID)/oauth2/v2.0/token", [
                ("grant_type", "client_credentials"), ("client_id", Self.daemon), ("client_secret", "woodgrove-daemon-secret"),
                ("scope", "api://woodgrove-api/.default"),
            ], headers: ["Host": host])
            #expect(token.status == 200, "\(token.text)")
            let claims = Self.claims(token.json["access_token"]?.stringValue)
            #expect(claims["iss"] == .string(issuer) && claims["tid"] == .string(Self.tenantID) && claims["tfp"] == nil)
        }
    }

    @Test("a ciamlogin name serves External ID tenants only, and the password grant is refused",
          arguments: MockIdentityProviderMode.allCases)
    func refusals(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: .value(try Self.configuration()), mode: mode) { idp in
            let workforce = try await idp.get("/\(Self.contoso)/v2.0/.well-known/openid-configuration",
                                              headers: ["Host": "woodgrovecustomers.ciamlogin.com"])
            #expect(workforce.status == 400 && workforce.json["error_codes"] == [90002])
            let ropc = try await idp.postForm("/\(Self.tenantID)/oauth2/v2.0/token", [
                ("grant_type", "password"), ("client_id", Self.mobile), ("username", "carol@example.com"),
                ("password", "Carol-Passw0rd"), ("scope", "openid"),
            ])
            #expect(ropc.status == 400 && ropc.json["error"] == "unsupported_grant_type" && ropc.json["error_codes"] == [70003])
            #expect(ropc.json["access_token"] == nil)
            // The v1 endpoints of the same tenant keep Entra's dialect (External ID's documents are v2 only).
            let outbox = try await idp.outbox()
            #expect(outbox.isEmpty)
        }
    }

    @Test("sign-up on the pages: the code from the outbox, attributes asked again until given, a fresh oid signed in at once",
          arguments: MockIdentityProviderMode.allCases)
    func signUp(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: .value(try Self.configuration()), mode: mode) { idp in
            let browser = Browser(idp)
            let url = idp.baseURL + "/\(Self.domain)/oauth2/v2.0/authorize?client_id=\(Self.mobile)&response_type=code"
                + "&redirect_uri=http%3A%2F%2Flocalhost&scope=openid%20profile%20offline_access&state=st&prompt=create"
            let start = try await browser.send("GET", url)
            #expect(start.status == 200 && start.text.contains("data-step=\"signup-email\""))
            let codePage = try await browser.submit(start, action: "eid_email", [("email", "ivan@example.com")])
            #expect(codePage.text.contains("data-step=\"code\""), "\(codePage.text.prefix(400))")
            let messages = try await idp.outbox()
            #expect(messages.count == 1 && messages.first?.purpose == "signUp" && messages.first?.to == "ivan@example.com")
            let code = try #require(try await idp.lastCode(sentTo: "IVAN@example.com"))
            let details = try await browser.submit(codePage, action: "eid_code", [("code", code)])
            #expect(details.text.contains("data-step=\"signup-details\""))
            let missing = try await browser.submit(details, action: "eid_details", [("password", "Ivan-Passw0rd"),
                                                                                    ("mockidp_attr_displayName", "Ivan Ivanov")])
            #expect(missing.status == 200 && missing.text.contains("This information is required."))
            let done = try await browser.submit(missing, action: "eid_details", [
                ("password", "Ivan-Passw0rd"), ("mockidp_attr_displayName", "Ivan Ivanov"), ("mockidp_attr_city", "Sofia"),
            ])
            #expect(done.status == 302, "\(done.text.prefix(400))")
            let query = B2CEndpointTests.query(done.header("Location"))
            let redeemed = try await idp.postForm("/\(Self.tenantID)/oauth2/v2.0/token", [
                ("grant_type", "authorization_code"), ("client_id", Self.mobile), ("code", query["code"] ?? ""),
                ("redirect_uri", "http://localhost"), ("scope", "openid profile offline_access"),
            ])
            #expect(redeemed.status == 200, "\(redeemed.text)")
            let claims = Self.claims(redeemed.json["id_token"]?.stringValue)
            #expect(claims["preferred_username"] == "ivan@example.com" && claims["name"] == "Ivan Ivanov")
            #expect(claims["oid"] != .string(User.derivedObjectID(tenantID: Self.tenantID, username: "ivan@example.com")))
            // The same code cannot be used again.
            let replay = try await browser.submit(codePage, action: "eid_code", [("code", code)])
            #expect(replay.text.contains("That code has expired."))
        }
    }
}
