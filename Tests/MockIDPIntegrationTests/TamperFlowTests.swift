import Foundation
import MockIDPJOSE
import MockIDPTesting
import Testing

/// A tamper fault reaches the token of every flow that issues one (refresh, device code, on-behalf-of, managed
/// identity, authorization code, implicit, hybrid), in both modes: the defect is there, the signature verifies
/// with the published keys and every other claim is the one a clean token of the same flow carries; `clientId` and
/// `count` decide which tokens take it. Client credentials and the password grant: TamperTests, ControlAPITests.
@Suite struct TamperFlowTests {
    static let contoso = "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11"
    static let mobile = "3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c"
    static let headless = "8a7b6c5d-4e3f-4a1b-9c2d-3e4f5a6b7c8d"
    static let middle = "1d2e3f4a-5b6c-4d7e-8f9a-0b1c2d3e4f5a"
    static let downstream = "2e3f4a5b-6c7d-4e8f-9a0b-1c2d3e4f5a6b"
    static let alice = "alice@contoso.onmicrosoft.com"
    /// Claims drawn fresh for every token (identifiers, times, hashes of what was issued with it).
    static let fresh: Set<String> = ["aio", "uti", "rh", "iat", "nbf", "exp", "c_hash", "at_hash"]

    /// The default configuration with the headless CI app (implicit and hybrid allowed) and the on-behalf-of example.
    static let configuration = ConfigurationSource.files([GrantTests.root + "/config/default.yaml",
                                                          GrantTests.root + "/config/examples/headless-ci.yaml",
                                                          GrantTests.root + "/config/examples/on-behalf-of.yaml"])

    /// The claims of `bad` after its signature verified with the tenant's keys, checked to differ from `clean`'s in
    /// exactly `changed` (leaving out the claims drawn fresh for each token).
    static func expectOneDefect(_ idp: MockIdentityProvider, bad: String?, clean: String?, changed: Set<String>,
                                sourceLocation: SourceLocation = #_sourceLocation) async throws -> JSONObject {
        let badClaims = try await idp.verifiedClaims(of: try #require(bad, sourceLocation: sourceLocation), tenant: contoso)
        let cleanClaims = try await idp.verifiedClaims(of: try #require(clean, sourceLocation: sourceLocation), tenant: contoso)
        let differ = Set(badClaims.keys).union(cleanClaims.keys).filter { badClaims[$0] != cleanClaims[$0] }
        #expect(differ.subtracting(fresh.subtracting(changed)) == changed, "\(differ)", sourceLocation: sourceLocation)
        return badClaims
    }

    static func token(_ idp: MockIdentityProvider, _ form: [(String, String)]) async throws -> JSONObject {
        let reply = try await idp.postForm(idp.tokenEndpoint(tenant: contoso), form)
        #expect(reply.status == 200, "\(reply.text)")
        return try #require(reply.json.objectValue)
    }

    @Test("refresh: the access token of a redeemed refresh token takes the fault",
          arguments: MockIdentityProviderMode.allCases)
    func refresh(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: Self.configuration, mode: mode) { idp in
            let signIn = try await idp.passwordToken(tenant: Self.contoso, clientID: Self.mobile, username: Self.alice,
                                                     password: "alice-password", scopes: ["User.Read", "offline_access"])
            func refreshed() async throws -> String {
                try await idp.refreshedToken(tenant: Self.contoso, clientID: Self.mobile, refreshToken: try #require(signIn.refreshToken),
                                             scopes: ["User.Read"]).accessToken
            }
            try await idp.tamper(.noSubject, token: .access, clientID: Self.mobile)
            let bad = try await Self.expectOneDefect(idp, bad: try await refreshed(), clean: try await refreshed(), changed: ["sub"])
            #expect(bad["sub"] == nil && bad["oid"] != nil)
        }
    }

    @Test("device code: the access token of the polled response takes the fault, its ID token stays clean",
          arguments: MockIdentityProviderMode.allCases)
    func deviceCode(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: Self.configuration, mode: mode) { idp in
            func deviceFlow() async throws -> JSONObject {
                let start = try await idp.postForm("/\(Self.contoso)/oauth2/v2.0/devicecode",
                                                   [("client_id", Self.mobile), ("scope", "openid profile User.Read")])
                let userCode = try #require(start.json["user_code"]?.stringValue)
                let browser = Browser(idp)
                let entry = try await browser.send("GET", idp.baseURL + "/devicelogin")
                let signIn = try await browser.submit(entry, action: "code", [("user_code", userCode)])
                let done = try await browser.submit(signIn, action: "signin",
                                                    [("username", Self.alice), ("password", "alice-password")])
                #expect(done.status == 200 && done.text.contains("You have signed in"), "\(done.text.prefix(300))")
                return try await Self.token(idp, [("grant_type", "urn:ietf:params:oauth:grant-type:device_code"),
                                                  ("client_id", Self.mobile), ("device_code", try #require(start.json["device_code"]?.stringValue))])
            }
            try await idp.tamper(.wrongAuthorizedParty, token: .access, clientID: Self.mobile)
            let bad = try await deviceFlow()
            let clean = try await deviceFlow()
            // User.Read is Microsoft Graph's, whose tokens are v1: the authorized party is `appid` there.
            let claims = try await Self.expectOneDefect(idp, bad: bad["access_token"]?.stringValue, clean: clean["access_token"]?.stringValue,
                                                        changed: ["appid"])
            #expect(claims["appid"] != nil && claims["appid"] != .string(Self.mobile))
            _ = try await Self.expectOneDefect(idp, bad: bad["id_token"]?.stringValue, clean: clean["id_token"]?.stringValue, changed: [])
        }
    }

    @Test("on-behalf-of: count 2 for the middle tier; the user's own token (another client) and the third exchange stay clean",
          arguments: MockIdentityProviderMode.allCases)
    func onBehalfOf(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: Self.configuration, mode: mode) { idp in
            try await idp.tamper(.wrongAudience, token: .access, clientID: Self.middle, count: 2)
            let incoming = try await idp.passwordToken(tenant: Self.contoso, clientID: Self.mobile, username: Self.alice,
                                                       password: "alice-password", scopes: ["api://contoso-middle/access_as_user"])
            #expect(incoming.claims["aud"] == .string(Self.middle))
            func exchange() async throws -> String? {
                try await Self.token(idp, [("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("client_id", Self.middle),
                                           ("client_secret", "middle-secret"), ("assertion", incoming.accessToken),
                                           ("scope", "api://contoso-downstream/read"), ("requested_token_use", "on_behalf_of")])["access_token"]?.stringValue
            }
            let first = try await exchange()
            let second = try await exchange()
            let third = try await exchange()
            for bad in [first, second] {
                let claims = try await Self.expectOneDefect(idp, bad: bad, clean: third, changed: ["aud"])
                #expect(claims["aud"] != .string(Self.downstream))
            }
            #expect(try await idp.verifiedClaims(of: try #require(third), tenant: Self.contoso)["aud"] == .string(Self.downstream))
            #expect(try await idp.pendingFaults().isEmpty)
        }
    }

    @Test("managed identity: the IMDS token of the identity named takes the fault; a fault for another client waits",
          arguments: MockIdentityProviderMode.allCases)
    func managedIdentity(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: Self.configuration, mode: mode) { idp in
            let identity = "7d3c9a10-2b4e-4f61-8a7d-0c5e6f7a8b9c"
            try await idp.addManagedIdentity(MockManagedIdentity(clientID: identity, systemAssigned: true), tenant: Self.contoso)
            func imds() async throws -> String? {
                let reply = try await idp.get(idp.managedIdentityEndpoint(.instanceMetadata)
                    + "?api-version=2018-02-01&resource=https%3A%2F%2Fmanagement.azure.com%2F", headers: ["Metadata": "true"])
                #expect(reply.status == 200, "\(reply.text)")
                return reply.json["access_token"]?.stringValue
            }
            try await idp.tamper(.expired, token: .access, clientID: Self.middle)
            try await idp.tamper(.wrongIssuer, token: .access, clientID: identity)
            let bad = try await imds()
            let claims = try await Self.expectOneDefect(idp, bad: bad, clean: try await imds(), changed: ["iss"])
            #expect(claims["iss"]?.stringValue?.hasPrefix("https://issuer.invalid/") == true)
            #expect(claims["appid"] == .string(identity))
            #expect(try await idp.pendingFaults().count == 1)
        }
    }

    /// The redirect of a headless sign-in at the authorize endpoint, as name-value pairs of its query or fragment.
    static func authorize(_ idp: MockIdentityProvider, responseType: String, mode: String? = nil) async throws -> [String: String] {
        var query = URLComponents(string: idp.authorizeEndpoint(tenant: contoso))!
        query.queryItems = [.init(name: "client_id", value: headless), .init(name: "redirect_uri", value: "http://localhost:40000"),
                            .init(name: "response_type", value: responseType), .init(name: "scope", value: "openid profile User.Read"),
                            .init(name: "login_hint", value: alice), .init(name: "nonce", value: "n-7"), .init(name: "state", value: "s")]
        let reply = try await Browser(idp).send("GET", query.url!.absoluteString)
        #expect(reply.status == 302, "\(reply.text.prefix(300))")
        let redirect = try #require(reply.header("Location"))
        let location = try #require(URLComponents(string: redirect))
        var pairs = URLComponents()
        pairs.percentEncodedQuery = location.percentEncodedFragment ?? location.percentEncodedQuery
        return Dictionary((pairs.queryItems ?? []).map { ($0.name, $0.value ?? "") }) { first, _ in first }
    }

    static func hash(_ value: String?) -> JSONValue {
        .string(Base64URL.encode(Digest.sha256(Array((value ?? "").utf8)).prefix(16)))
    }

    @Test("authorization code: the ID token of the redeemed code takes a nonce fault",
          arguments: MockIdentityProviderMode.allCases)
    func authorizationCode(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: Self.configuration, mode: mode) { idp in
            func redeemed() async throws -> String? {
                let code = try #require(try await Self.authorize(idp, responseType: "code")["code"])
                return try await Self.token(idp, [("grant_type", "authorization_code"), ("client_id", Self.headless), ("code", code),
                                                  ("redirect_uri", "http://localhost:40000"),
                                                  ("scope", "openid profile User.Read")])["id_token"]?.stringValue
            }
            try await idp.tamper(.wrongNonce, token: .id, clientID: Self.headless)
            let claims = try await Self.expectOneDefect(idp, bad: try await redeemed(), clean: try await redeemed(), changed: ["nonce"])
            #expect(claims["nonce"] != nil && claims["nonce"] != "n-7")
        }
    }

    @Test("implicit (id_token token): each token of the fragment takes its own fault, the at_hash names the access token sent",
          arguments: MockIdentityProviderMode.allCases)
    func implicit(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: Self.configuration, mode: mode) { idp in
            try await idp.tamper(.noNonce, token: .id, clientID: Self.headless)
            try await idp.tamper(.wrongTenant, token: .access, clientID: Self.headless)
            let bad = try await Self.authorize(idp, responseType: "id_token token")
            let clean = try await Self.authorize(idp, responseType: "id_token token")
            let id = try await Self.expectOneDefect(idp, bad: bad["id_token"], clean: clean["id_token"], changed: ["nonce"])
            #expect(id["nonce"] == nil && id["at_hash"] == Self.hash(bad["access_token"]))
            // wrong-tenant moves tid and iss to another tenant; the token is still signed by a published key.
            let access = try await Self.expectOneDefect(idp, bad: bad["access_token"], clean: clean["access_token"], changed: ["tid", "iss"])
            #expect(access["tid"] != .string(Self.contoso))
        }
    }

    @Test("hybrid (code id_token token): an access-token fault leaves the ID token's c_hash and at_hash matching what was sent",
          arguments: MockIdentityProviderMode.allCases)
    func hybrid(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: Self.configuration, mode: mode) { idp in
            try await idp.tamper(.expired, token: .access, clientID: Self.headless)
            let bad = try await Self.authorize(idp, responseType: "code id_token token")
            let clean = try await Self.authorize(idp, responseType: "code id_token token")
            let access = try await Self.expectOneDefect(idp, bad: bad["access_token"], clean: clean["access_token"], changed: ["exp"])
            #expect(try #require(access["exp"]?.intValue) < Int(Date().timeIntervalSince1970))
            let id = try await Self.expectOneDefect(idp, bad: bad["id_token"], clean: clean["id_token"], changed: [])
            #expect(id["at_hash"] == Self.hash(bad["access_token"]) && id["c_hash"] == Self.hash(bad["code"]))
            #expect(id["nonce"] == "n-7")
        }
    }
}
