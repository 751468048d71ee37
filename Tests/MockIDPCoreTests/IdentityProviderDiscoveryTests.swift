import MockIDPCore
import MockIDPJOSE
import Testing

@Suite struct IdentityProviderDiscoveryTests {
    let provider = Fixtures.provider()
    let base = "https://localhost:8443"

    func document(_ tenant: String, _ version: ProtocolVersion = .v2) throws -> JSONObject {
        switch provider.discovery.openIDConfiguration(tenant: tenant, version: version, context: provider.testScope()) {
        case .success(let d): return try #require(d.objectValue)
        case .failure(let e): Issue.record("unexpected \(e)"); return [:]
        }
    }

    @Test("a domain resolves to the tenant GUID in issuer and endpoints")
    func domainResolvesToGUID() throws {
        let d = try document("contoso.onmicrosoft.com")
        #expect(d["issuer"] == .string("\(base)/\(Fixtures.contosoID)/v2.0"))
        #expect(d["token_endpoint"] == .string("\(base)/\(Fixtures.contosoID)/oauth2/v2.0/token"))
        #expect(d["jwks_uri"] == .string("\(base)/\(Fixtures.contosoID)/discovery/v2.0/keys"))
        #expect(d["tenant_region_scope"] == "WW")
        #expect(d["cloud_instance_name"] == "microsoftonline.com")
        // Graph answers on this server's own host: msgraph_host names it, without a scheme.
        #expect(d["msgraph_host"] == .string(String(base.dropFirst("https://".count))))
    }

    @Test("common and organizations carry the {tenantid} issuer and keep their segment", arguments: ["common", "organizations"])
    func multiTenantIssuer(segment: String) throws {
        let d = try document(segment)
        #expect(d["issuer"] == .string("\(base)/{tenantid}/v2.0"))
        #expect(d["authorization_endpoint"] == .string("\(base)/\(segment)/oauth2/v2.0/authorize"))
        #expect(d["tenant_region_scope"] == .null)
    }

    @Test("consumers names the personal-account tenant in its issuer")
    func consumers() throws {
        #expect(try document("consumers")["issuer"] == .string("\(base)/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0"))
    }

    @Test("the v2 document's members come in Entra's order")
    func memberOrder() throws {
        let keys = try document(Fixtures.contosoID).keys
        #expect(Array(keys.prefix(5)) == ["token_endpoint", "token_endpoint_auth_methods_supported", "jwks_uri",
                                          "response_modes_supported", "subject_types_supported"])
        #expect(keys.last == "rbac_url")
    }

    @Test("the v1 document has the sts.windows.net issuer and the common key set")
    func v1Document() throws {
        let d = try document("contoso.onmicrosoft.com", .v1)
        #expect(d["issuer"] == .string("https://sts.windows.net/\(Fixtures.contosoID)/"))
        #expect(d["jwks_uri"] == .string("\(base)/common/discovery/keys"))
        #expect(d["microsoft_multi_refresh_token"] == true)
    }

    @Test("an unknown tenant is invalid_tenant 90002")
    func unknownTenant() {
        guard case .failure(let e) = provider.discovery.openIDConfiguration(tenant: "nope.example", version: .v2, context: provider.testScope()) else {
            Issue.record("expected a failure"); return
        }
        #expect(e.code == .invalidTenant && e.aadsts == 90002 && e.status == 400)
    }

    @Test("v2 keys carry issuer and kid equal to x5t; v1 keys carry no issuer")
    func keySets() throws {
        guard case .success(let v2) = provider.discovery.keySet(tenant: "common", version: .v2, context: provider.testScope()),
              case .success(let v1) = provider.discovery.keySet(tenant: "common", version: .v1, context: provider.testScope()) else {
            Issue.record("key sets failed"); return
        }
        let key = try #require(v2["keys"]?.arrayValue?.first?.objectValue)
        #expect(key["kid"] == key["x5t"])
        #expect(key["issuer"] == .string("\(base)/{tenantid}/v2.0"))
        #expect(key["kty"] == "RSA" && key["use"] == "sig")
        #expect(v1["keys"]?.arrayValue?.first?["issuer"] == nil)
    }

    @Test("instance discovery names this server first and rejects unknown hosts")
    func instanceDiscovery() throws {
        let served: Set<String> = ["localhost"]
        guard case .success(let ok) = provider.discovery.instanceDiscovery(
            authorizationEndpoint: "https://localhost/contoso.onmicrosoft.com/oauth2/v2.0/authorize", servedHosts: served,
            context: provider.testScope()) else { Issue.record("expected success"); return }
        #expect(ok["tenant_discovery_endpoint"] == .string("\(base)/contoso.onmicrosoft.com/v2.0/.well-known/openid-configuration"))
        #expect(ok["metadata"]?.arrayValue?.first?["preferred_network"] == "localhost:8443")
        guard case .failure(let e) = provider.discovery.instanceDiscovery(
            authorizationEndpoint: "https://evil.example/x/oauth2/v2.0/authorize", servedHosts: served, context: provider.testScope()) else {
            Issue.record("expected failure"); return
        }
        #expect(e.code == .invalidInstance && e.aadsts == 50049)
    }

    @Test("user realm is managed for a configured domain and unknown otherwise")
    func userRealm() {
        #expect(provider.discovery.userRealm(username: "alice@contoso.onmicrosoft.com", context: provider.testScope())["account_type"] == "Managed")
        #expect(provider.discovery.userRealm(username: "x@unknown.example", context: provider.testScope())["account_type"] == "Unknown")
    }

    @Test("userinfo answers for a user access token and rejects app tokens and garbage")
    func userInfo() throws {
        let body = Fixtures.token(provider, tenant: Fixtures.contosoID, [
            ("grant_type", "password"), ("client_id", Fixtures.mobile), ("username", "alice@contoso.onmicrosoft.com"),
            ("password", "alice-password"), ("scope", "User.Read openid profile email"),
        ]).body
        guard case .success(let info) = provider.userInfo.answer(bearerToken: body?["access_token"]?.stringValue, directory: provider.snapshot()) else {
            Issue.record("userinfo failed"); return
        }
        #expect(info["name"] == "Alice Adams" && info["email"] == "alice@contoso.com")
        guard case .failure(let e) = provider.userInfo.answer(bearerToken: "a.b.c", directory: provider.snapshot()) else { Issue.record("expected failure"); return }
        #expect(e.status == 401)
    }

    @Test("Entra timestamps are UTC civil dates")
    func timestamps() {
        #expect(EntraTime.timestamp(0) == "1970-01-01 00:00:00Z")
        #expect(EntraTime.timestamp(1_711_489_682) == "2024-03-26 21:48:02Z")
        #expect(EntraTime.duration(90 * 86400) == "90.00:00:00")
        var line = Array("x ".utf8)
        EntraTime.appendTimestamp(1_711_489_682, to: &line)
        #expect(String(decoding: line, as: UTF8.self) == "x 2024-03-26 21:48:02Z")
        #expect(EntraTime.timestamp(253_402_300_800) == "10000-01-01 00:00:00Z")
    }

    @Test("derived GUIDs are stable and well formed")
    func guids() {
        let a = User.derivedObjectID(tenantID: "T", username: "Bob@X")
        #expect(a == User.derivedObjectID(tenantID: "t", username: "bob@x"))
        #expect(GUID.isValid(a))
        #expect(!GUID.isValid("not-a-guid"))
        // The values every earlier version gave (SHA-256 of the lower-cased name, in version-5 layout).
        #expect(User.derivedObjectID(tenantID: "6A1F3C1E-0d5b-4c36-9d62-2f0a8f4b7c11", username: "Alice@contoso.onmicrosoft.com")
            == "54949d0a-63d6-5207-85a8-de097315420d")
        #expect(User.derivedObjectID(tenantID: "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11", username: "ZOË@contoso.onmicrosoft.com")
            == "037886d9-02eb-5645-ace5-0d302ad6cb9f")
        #expect(GUID.isValid("6A1F3C1E-0d5b-4c36-9d62-2f0a8f4b7c11"))
        #expect(GUID.isValid("/6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11/".dropFirst().dropLast()))
        #expect(!GUID.isValid("/6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11/".dropFirst()))
        for text in ["", "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c1", "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c111",
                     "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c1g", "6a1f3c1e+0d5b-4c36-9d62-2f0a8f4b7c11",
                     "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c1é", "6a1f3c1e0d5b-4c36-9d62-2f0a8f4b7c11-"] {
            #expect(!GUID.isValid(text), "\(text)")
        }
    }
}
