import Foundation
import MockIDPJOSE
import MockIDPTesting
import Testing

/// Every endpoint and every error a user can trigger, in both modes: through the routes in-process and over real
/// sockets.
@Suite struct EndpointTests {
    static let contoso = "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11"
    static let daemon = "9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d"
    static let mobile = "3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c"
    static let web = "5e8f1a2b-3c4d-4e5f-9a0b-1c2d3e4f5a6b"

    func tokenURL(_ idp: MockIdentityProvider, _ tenant: String = contoso) -> String { "\(idp.baseURL)/\(tenant)/oauth2/v2.0/token" }

    @Test("discovery documents answer by GUID, domain and alias with Entra's headers",
          arguments: MockIdentityProviderMode.allCases)
    func discovery(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            for tenant in [Self.contoso, "contoso.onmicrosoft.com", "CONTOSO.COM", "common", "organizations", "consumers"] {
                let r = try await idp.get("/\(tenant)/v2.0/.well-known/openid-configuration")
                #expect(r.status == 200, "\(tenant)")
                #expect(r.header("Content-Type") == "application/json; charset=utf-8")
                #expect(r.header("Cache-Control") == "max-age=86400, private")
                #expect(r.header("Access-Control-Allow-Origin") == "*")
            }
            let doc = try await idp.get("/contoso.com/v2.0/.well-known/openid-configuration").json
            #expect(doc["issuer"] == .string("\(idp.baseURL)/\(Self.contoso)/v2.0"))
            let v1 = try await idp.get("/\(Self.contoso)/.well-known/openid-configuration").json
            #expect(v1["issuer"] == .string("https://sts.windows.net/\(Self.contoso)/"))
            let bad = try await idp.get("/nope.example/v2.0/.well-known/openid-configuration")
            #expect(bad.status == 400)
            #expect(bad.json["error"] == "invalid_tenant" && bad.json["error_codes"] == [90002])
        }
    }

    @Test("?appid= on a discovery URL is kept in its jwks_uri, which answers with the key set; without it, none",
          arguments: MockIdentityProviderMode.allCases)
    func discoveryKeepsAppID(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            let app = "6731de76-14a6-49ae-97bc-6eba6914391e"
            let v2 = try await idp.get("/\(Self.contoso)/v2.0/.well-known/openid-configuration?appid=\(app)").json
            #expect(v2["jwks_uri"] == .string("\(idp.baseURL)/\(Self.contoso)/discovery/v2.0/keys?appid=\(app)"))
            let v1 = try await idp.get("/\(Self.contoso)/.well-known/openid-configuration?appid=\(app)").json
            #expect(v1["jwks_uri"] == .string("\(idp.baseURL)/common/discovery/keys?appid=\(app)"))
            let odd = try await idp.get("/\(Self.contoso)/v2.0/.well-known/openid-configuration?appid=a%20b%26c").json
            #expect(odd["jwks_uri"] == .string("\(idp.baseURL)/\(Self.contoso)/discovery/v2.0/keys?appid=a%20b%26c"))
            let plain = try await idp.get("/\(Self.contoso)/v2.0/.well-known/openid-configuration").json
            #expect(plain["jwks_uri"] == .string("\(idp.baseURL)/\(Self.contoso)/discovery/v2.0/keys"))
            let keys = try await idp.get(try #require(v2["jwks_uri"]?.stringValue))
            #expect(keys.status == 200 && keys.json["keys"]?.arrayValue?.count == 1)
        }
    }

    @Test("the key sets at every path hold the signing key", arguments: MockIdentityProviderMode.allCases)
    func keys(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            var kids: Set<String> = []
            for path in ["/\(Self.contoso)/discovery/v2.0/keys", "/\(Self.contoso)/discovery/keys", "/common/discovery/keys",
                         "/organizations/discovery/v2.0/keys"] {
                let r = try await idp.get(path)
                #expect(r.status == 200, "\(path)")
                let key = r.json["keys"]?.arrayValue?.first
                if let kid = key?["kid"]?.stringValue { kids.insert(kid) }
                #expect(key?["x5c"]?.arrayValue?.count == 1)
            }
            #expect(kids.count == 1)
        }
    }

    @Test("client credentials with the secret in the body and in HTTP Basic",
          arguments: MockIdentityProviderMode.allCases)
    func clientCredentials(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            let body = try await idp.postForm(tokenURL(idp), [("grant_type", "client_credentials"), ("client_id", Self.daemon),
                                                              ("client_secret", "daemon-secret"), ("scope", "api://contoso-api/.default")])
            #expect(body.status == 200)
            #expect(body.header("Cache-Control") == "no-store, no-cache")
            #expect(body.json["access_token"]?.stringValue?.split(separator: ".").count == 3)
            let basic = "Basic " + Data("\(Self.daemon):daemon-secret".utf8).base64EncodedString()
            let viaBasic = try await idp.postForm(tokenURL(idp), [("grant_type", "client_credentials"), ("scope", "api://contoso-api/.default")],
                                                  headers: ["Authorization": basic])
            #expect(viaBasic.status == 200, "\(viaBasic.text)")
        }
    }

    @Test("token errors carry Entra's codes, statuses and correlation id",
          arguments: MockIdentityProviderMode.allCases, [
        ([("grant_type", "client_credentials"), ("client_id", "00000000-0000-0000-0000-0000000000aa"), ("client_secret", "x"),
          ("scope", "api://contoso-api/.default")], 400, "unauthorized_client", 700016),
        ([("grant_type", "client_credentials"), ("client_id", daemon), ("client_secret", "wrong"), ("scope", "api://contoso-api/.default")],
         401, "invalid_client", 7000215),
        ([("grant_type", "client_credentials"), ("client_id", daemon), ("scope", "api://contoso-api/.default")], 401, "invalid_client", 7000218),
        ([("grant_type", "password"), ("client_id", mobile), ("client_secret", "x"), ("username", "alice@contoso.onmicrosoft.com"),
          ("password", "alice-password"), ("scope", "User.Read")], 401, "invalid_client", 700025),
        ([("grant_type", "password"), ("client_id", mobile), ("username", "alice@contoso.onmicrosoft.com"), ("password", "no"),
          ("scope", "User.Read")], 400, "invalid_grant", 50126),
        ([("grant_type", "password"), ("client_id", mobile), ("username", "zed@contoso.onmicrosoft.com"), ("password", "no"),
          ("scope", "User.Read")], 400, "invalid_grant", 50034),
        ([("grant_type", "password"), ("client_id", mobile), ("username", "bob@contoso.onmicrosoft.com"), ("password", "bob-password"),
          ("scope", "User.Read")], 400, "invalid_grant", 50076),
        ([("grant_type", "refresh_token"), ("client_id", mobile), ("refresh_token", "garbage")], 400, "invalid_grant", 9002313),
        ([("grant_type", "password"), ("client_id", mobile), ("username", "alice@contoso.onmicrosoft.com"), ("password", "alice-password"),
          ("scope", "api://contoso-api/missing")], 400, "invalid_scope", 70011),
        ([("grant_type", "password"), ("client_id", mobile)], 400, "invalid_request", 900144),
        ([("grant_type", "urn:nope")], 400, "unsupported_grant_type", 70003),
        ([("grant_type", "password"), ("grant_type", "password")], 400, "invalid_request", 9000411),
    ] as [([(String, String)], Int, String, Int)])
    func tokenErrors(mode: MockIdentityProviderMode, refusal: ([(String, String)], Int, String, Int)) async throws {
        let (form, status, error, code) = refusal
        try await withMockIdentityProvider(mode: mode) { idp in
            let correlation = "0bffffde-0199-491b-a4db-516eaefcf642"
            let r = try await idp.postForm(tokenURL(idp), form, headers: ["client-request-id": correlation])
            #expect(r.status == status)
            #expect(r.json["error"] == .string(error))
            #expect(r.json["error_codes"] == [.int(code)])
            #expect(r.json["error_description"]?.stringValue?.hasPrefix("AADSTS\(code): ") == true)
            #expect(r.json["correlation_id"] == .string(correlation))
            #expect(r.json["trace_id"]?.stringValue?.count == 36)
            #expect(r.json["error_uri"] == .string("https://login.microsoftonline.com/error?code=\(code)"))
        }
    }

    @Test("GET on the token endpoint is 900561; an unknown tenant is 90002; a JSON body is refused",
          arguments: MockIdentityProviderMode.allCases)
    func tokenRequestShape(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            let get = try await idp.get(tokenURL(idp))
            #expect(get.status == 400 && get.json["error_codes"] == [900561])
            let tenant = try await idp.postForm(tokenURL(idp, "nobody.example"), [("grant_type", "client_credentials")])
            #expect(tenant.status == 400 && tenant.json["error_codes"] == [90002])
            let json = try await idp.postJSON(tokenURL(idp), text: #"{"grant_type":"password"}"#)
            #expect(json.status == 400 && json.json["error"] == "invalid_request")
            let badForm = try await idp.execute("POST", tokenURL(idp), headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                                body: Array("a=%ZZ".utf8))
            #expect(badForm.status == 400 && badForm.json["error"] == "invalid_request")
        }
    }

    @Test("password, refresh and userinfo round trip", arguments: MockIdentityProviderMode.allCases)
    func userFlow(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            let first = try await idp.postForm(tokenURL(idp, "organizations"), [
                ("grant_type", "password"), ("client_id", Self.web), ("client_secret", "web-secret"),
                ("username", "alice@contoso.onmicrosoft.com"), ("password", "alice-password"),
                ("scope", "User.Read openid profile offline_access"), ("client_info", "1"),
            ])
            #expect(first.status == 200, "\(first.text)")
            let rt = try #require(first.json["refresh_token"]?.stringValue)
            #expect(first.json["client_info"] != nil)
            let second = try await idp.postForm(tokenURL(idp), [("grant_type", "refresh_token"), ("client_id", Self.web),
                                                                ("client_secret", "web-secret"), ("refresh_token", rt)])
            #expect(second.status == 200, "\(second.text)")
            let at = try #require(second.json["access_token"]?.stringValue)
            let info = try await idp.get("/oidc/userinfo", headers: ["Authorization": "Bearer \(at)"])
            #expect(info.status == 200 && info.json["name"] == "Alice Adams")
            let denied = try await idp.get("/oidc/userinfo", headers: ["Authorization": "Bearer x.y.z"])
            #expect(denied.status == 401)
            #expect(denied.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
        }
    }

    @Test("instance discovery, user realm, health and unknown paths", arguments: MockIdentityProviderMode.allCases)
    func supportEndpoints(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            let host = String(idp.baseURL.dropFirst("http://".count))
            let inst = try await idp.get("/common/discovery/instance?api-version=1.1&authorization_endpoint=https://127.0.0.1/\(Self.contoso)/oauth2/v2.0/authorize")
            #expect(inst.status == 200)
            #expect(inst.json["metadata"]?.arrayValue?.first?["preferred_network"] == .string(host))
            let bad = try await idp.get("/common/discovery/instance?authorization_endpoint=https://evil.example/t/oauth2/v2.0/authorize")
            #expect(bad.status == 400 && bad.json["error"] == "invalid_instance")
            let realm = try await idp.get("/common/userrealm/alice@contoso.onmicrosoft.com?api-version=1.0")
            #expect(realm.json["account_type"] == "Managed")
            let health = try await idp.get("/_mockidp/health")
            #expect(health.status == 200 && health.json == ["status": "ok"])
            let missing = try await idp.get("/no/such/thing")
            #expect(missing.status == 404)
        }
    }

    @Test("a crafted Host header never reaches issued URLs", arguments: MockIdentityProviderMode.allCases)
    func hostHeaderInjection(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            let r = try await idp.get("/common/v2.0/.well-known/openid-configuration",
                                      headers: ["Host": "evil.example/\"><script>"])
            let issuer = r.json["issuer"]?.stringValue ?? ""
            #expect(!issuer.contains("evil") && !issuer.contains("<"))
        }
    }
}
