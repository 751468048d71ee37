import MockIDPCore
import MockIDPJOSE
import MockIDPTesting
import Testing

/// External ID's native authentication API over HTTP, in both modes: sign-up and sign-in through `MockIDPTesting`'s
/// helpers, the error body's shape and status, the paths on the tenant's ciamlogin host by GUID and by domain.
@Suite struct NativeAuthEndpointTests {
    static let tenantID = "5e1b2c3d-4f5a-4b6c-8d7e-9f0a1b2c3d4e"
    static let otpTenantID = "6f2c3d4e-5a6b-4c7d-9e8f-0a1b2c3d4e5f"
    static let native = "8a9b0c1d-2e3f-4a5b-8c6d-7e8f9a0b1c2d"
    static let plain = "0c1d2e3f-4a5b-4c6d-8e8f-9a0b1c2d3e4f"

    static let configuration = ConfigurationSource.yaml("""
        tenants:
          - id: \(tenantID)
            domains: [contosocustomers.onmicrosoft.com]
            externalId:
              subdomain: contosocustomers
              attributes: [displayName, city]
            users:
              - username: dana@example.com
                password: Dana-passw0rd
            apps:
              - clientId: \(native)
                type: public
                nativeAuth: true
              - clientId: \(plain)
                type: public
          - id: \(otpTenantID)
            domains: [fabrikamcustomers.onmicrosoft.com]
            externalId:
              subdomain: fabrikamcustomers
              signIn: otp
            users:
              - username: finn@example.com
                password: unused-Passw0rd
            apps:
              - clientId: \(native)
                type: public
                nativeAuth: true
        """)

    @Test("a user signs up with attributes, gets a fresh oid, and signs in at once with the password", arguments: MockIdentityProviderMode.allCases)
    func signUpThenSignIn(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: Self.configuration, mode: mode) { idp in
            let signedUp = try await idp.nativeAuthSignUp(tenant: Self.tenantID, clientID: Self.native, username: "gail@example.com",
                                                          password: "Gail-passw0rd", attributes: ["displayName": "Gail", "city": "Oslo"])
            let oid = try #require(signedUp.idTokenClaims?["oid"]?.stringValue)
            #expect(signedUp.idTokenClaims?["name"] == "Gail" && signedUp.refreshToken != nil)
            #expect(signedUp.response["client_info"] != nil)
            let signedIn = try await idp.nativeAuthSignIn(tenant: "contosocustomers.onmicrosoft.com", clientID: Self.native,
                                                          username: "gail@example.com", password: "Gail-passw0rd")
            #expect(signedIn.idTokenClaims?["oid"] == .string(oid))
            let refreshed = try await idp.refreshedToken(tenant: Self.tenantID, clientID: Self.native,
                                                         refreshToken: try #require(signedIn.refreshToken), scopes: ["openid"])
            #expect(refreshed.claims["oid"] == .string(oid))
            let codes = try await idp.outbox()
            #expect(codes.map(\.purpose) == ["signUp"] && codes.first?.to == "gail@example.com")
        }
    }

    @Test("a signIn: otp tenant signs in with the code from the outbox", arguments: MockIdentityProviderMode.allCases)
    func otpSignIn(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: Self.configuration, mode: mode) { idp in
            let tokens = try await idp.nativeAuthSignIn(tenant: Self.otpTenantID, clientID: Self.native, username: "finn@example.com")
            #expect(tokens.idTokenClaims?["tid"] == .string(Self.otpTenantID))
            #expect(try await idp.outbox().last?.purpose == "signIn")
        }
    }

    @Test("errors are Entra's JSON: 400 with integer error_codes, trace and correlation IDs; 401 for invalid_client; POST only",
          arguments: MockIdentityProviderMode.allCases)
    func errors(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: Self.configuration, mode: mode) { idp in
            let url = idp.nativeAuthEndpoint(.signInInitiate, tenant: Self.tenantID)
            let noRedirect = try await idp.postForm(url, [("client_id", Self.native), ("username", "dana@example.com"), ("challenge_type", "password")])
            #expect(noRedirect.status == 400 && noRedirect.json["error"] == "invalid_request" && noRedirect.json["error_codes"] == [901007])
            #expect(noRedirect.json["error_description"]?.stringValue?.hasPrefix("AADSTS901007: ") == true)
            #expect(noRedirect.json["error_description"]?.stringValue?.contains("Trace ID: ") == true)
            #expect(noRedirect.json["trace_id"] != nil && noRedirect.json["correlation_id"] != nil && noRedirect.json["timestamp"] != nil)
            let disabled = try await idp.postForm(url, [("client_id", Self.plain), ("username", "dana@example.com"), ("challenge_type", "password redirect")])
            #expect(disabled.status == 401 && disabled.json["error"] == "invalid_client" && disabled.json["suberror"] == "nativeauthapi_disabled")
            let unknown = try await idp.postForm(url, [("client_id", Self.native), ("username", "zed@example.com"), ("challenge_type", "password redirect")])
            #expect(unknown.status == 400 && unknown.json["error"] == "user_not_found" && unknown.json["error_codes"] == [50034])
            #expect(try await idp.get(url).status == 400)
            let ropc = try await idp.postForm(idp.tokenEndpoint(tenant: Self.tenantID), [("client_id", Self.native), ("grant_type", "password"),
                                                                                        ("username", "dana@example.com"), ("password", "Dana-passw0rd")])
            #expect(ropc.json["error"] == "unsupported_grant_type")
            let signUp = idp.nativeAuthEndpoint(.signUpStart, tenant: Self.tenantID)
            let started = try await idp.postForm(signUp, [("client_id", Self.native), ("username", "hal@example.com"), ("challenge_type", "oob password redirect")])
            let token = try #require(started.json["continuation_token"]?.stringValue)
            let challenged = try await idp.postForm(idp.nativeAuthEndpoint(.signUpChallenge, tenant: Self.tenantID),
                                                    [("client_id", Self.native), ("continuation_token", token), ("challenge_type", "oob password redirect")])
            let code = try #require(try await idp.lastCode(sentTo: "hal@example.com"))
            let needs = try await idp.postForm(idp.nativeAuthEndpoint(.signUpContinue, tenant: Self.tenantID),
                                               [("client_id", Self.native), ("continuation_token", try #require(challenged.json["continuation_token"]?.stringValue)),
                                                ("grant_type", "oob"), ("oob", code)])
            #expect(needs.status == 400 && needs.json["error"] == "credential_required" && needs.json["continuation_token"] != nil)
        }
    }

    @Test("the paths answer at the tenant's ciamlogin host, by GUID and by domain",
          arguments: MockIdentityProviderMode.allCases)
    func hosts(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: Self.configuration, mode: mode) { idp in
            for tenant in [Self.tenantID, "contosocustomers.onmicrosoft.com"] {
                let reply = try await idp.execute("POST", "/\(tenant)/oauth2/v2.0/initiate",
                                                  headers: ["Host": "contosocustomers.ciamlogin.com", "Content-Type": "application/x-www-form-urlencoded"],
                                                  body: Array("client_id=\(Self.native)&username=dana%40example.com&challenge_type=password%20redirect".utf8))
                #expect(reply.status == 200 && reply.json["continuation_token"] != nil)
            }
        }
    }
}
