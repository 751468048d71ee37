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

    /// The polled response of a device code flow for the mobile app, Alice signing in at `/devicelogin`.
    static func deviceFlow(_ idp: MockIdentityProvider) async throws -> JSONObject {
        let start = try await idp.postForm("/\(contoso)/oauth2/v2.0/devicecode",
                                           [("client_id", mobile), ("scope", "openid profile User.Read")])
        let userCode = try #require(start.json["user_code"]?.stringValue)
        let browser = Browser(idp)
        let entry = try await browser.send("GET", idp.baseURL + "/devicelogin")
        let signIn = try await browser.submit(entry, action: "code", [("user_code", userCode)])
        let done = try await browser.submit(signIn, action: "signin", [("username", alice), ("password", "alice-password")])
        #expect(done.status == 200 && done.text.contains("You have signed in"), "\(done.text.prefix(300))")
        return try await token(idp, [("grant_type", "urn:ietf:params:oauth:grant-type:device_code"),
                                     ("client_id", mobile), ("device_code", try #require(start.json["device_code"]?.stringValue))])
    }

    @Test("device code: the access token of the polled response takes the fault, its ID token stays clean",
          arguments: MockIdentityProviderMode.allCases)
    func deviceCode(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: Self.configuration, mode: mode) { idp in
            try await idp.tamper(.wrongAuthorizedParty, token: .access, clientID: Self.mobile)
            let bad = try await Self.deviceFlow(idp)
            let clean = try await Self.deviceFlow(idp)
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

    /// The ID token of a code the headless app gets at the authorize endpoint and redeems.
    static func redeemedIDToken(_ idp: MockIdentityProvider) async throws -> String? {
        let code = try #require(try await authorize(idp, responseType: "code")["code"])
        return try await token(idp, [("grant_type", "authorization_code"), ("client_id", headless), ("code", code),
                                     ("redirect_uri", "http://localhost:40000"),
                                     ("scope", "openid profile User.Read")])["id_token"]?.stringValue
    }

    @Test("authorization code: the ID token of the redeemed code takes a nonce fault",
          arguments: MockIdentityProviderMode.allCases)
    func authorizationCode(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: Self.configuration, mode: mode) { idp in
            try await idp.tamper(.wrongNonce, token: .id, clientID: Self.headless)
            let claims = try await Self.expectOneDefect(idp, bad: try await Self.redeemedIDToken(idp), clean: try await Self.redeemedIDToken(idp),
                                                        changed: ["nonce"])
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

    /// The header of a compact JWS as it was sent (its members in their order), its claims (unverified) and its
    /// signature part.
    static func parts(_ token: String?, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> (header: String, claims: JSONObject, signature: Substring) {
        let parts = try #require(token, sourceLocation: sourceLocation).split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3, sourceLocation: sourceLocation)
        let header = try #require(Base64URL.decode(parts[0]), sourceLocation: sourceLocation)
        let payload = try #require(Base64URL.decode(parts[1]), sourceLocation: sourceLocation)
        let claims = try #require(try JSONValue.parse(payload).objectValue, sourceLocation: sourceLocation)
        return (String(decoding: header, as: UTF8.self), claims, parts[2])
    }

    /// `bad` carries alg-none: the header of `clean` (the same flow's clean token) with `alg` changed to `none` and
    /// nothing else (`kid`, and v1's `x5t`, kept), an empty signature, and the claims of a clean token.
    static func expectAlgNone(_ idp: MockIdentityProvider, _ flow: String, bad: String?, clean: String?,
                              sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let (badHeader, badClaims, badSignature) = try parts(bad, sourceLocation: sourceLocation)
        let cleanHeader = try parts(clean, sourceLocation: sourceLocation).header
        #expect(cleanHeader.contains(#""alg":"RS256""#) && cleanHeader.contains(#""kid":"#), "\(flow): \(cleanHeader)",
                sourceLocation: sourceLocation)
        #expect(badHeader == cleanHeader.replacing(#""alg":"RS256""#, with: #""alg":"none""#), "\(flow): \(badHeader)",
                sourceLocation: sourceLocation)
        #expect(badSignature.isEmpty, "\(flow)", sourceLocation: sourceLocation)
        // The claims are those of the same flow's clean token, whose signature verifies; only the fresh ones differ.
        let cleanClaims = try await idp.verifiedClaims(of: try #require(clean, sourceLocation: sourceLocation), tenant: contoso)
        let differ = Set(badClaims.keys).union(cleanClaims.keys).filter { badClaims[$0] != cleanClaims[$0] }
        #expect(differ.subtracting(fresh).isEmpty, "\(flow): \(differ)", sourceLocation: sourceLocation)
    }

    @Test("alg-none in every flow: the clean token's header with alg none (kid and v1's x5t kept), an empty signature",
          arguments: MockIdentityProviderMode.allCases)
    func algNoneInEveryFlow(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: Self.configuration, mode: mode) { idp in
            let daemon = "9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d"
            // Client credentials (a v2 API's token).
            func app() async throws -> String? {
                try await Self.token(idp, [("grant_type", "client_credentials"), ("client_id", daemon), ("client_secret", "daemon-secret"),
                                           ("scope", "api://contoso-api/.default")])["access_token"]?.stringValue
            }
            try await idp.tamper(.algNone, token: .access, clientID: daemon)
            try await Self.expectAlgNone(idp, "client credentials", bad: try await app(), clean: try await app())

            // Password grant, v2 endpoint: a v2 ID token and a Graph (v1) access token; then its refresh.
            func password() async throws -> JSONObject {
                try await Self.token(idp, [("grant_type", "password"), ("client_id", Self.mobile), ("username", Self.alice),
                                           ("password", "alice-password"), ("scope", "openid profile User.Read offline_access")])
            }
            try await idp.tamper(.algNone, token: .all, clientID: Self.mobile, count: 2)
            let bad = try await password()
            let clean = try await password()
            try await Self.expectAlgNone(idp, "password ID token", bad: bad["id_token"]?.stringValue, clean: clean["id_token"]?.stringValue)
            try await Self.expectAlgNone(idp, "password access token", bad: bad["access_token"]?.stringValue,
                                         clean: clean["access_token"]?.stringValue)
            func refreshed() async throws -> String? {
                try await Self.token(idp, [("grant_type", "refresh_token"), ("client_id", Self.mobile), ("scope", "User.Read"),
                                           ("refresh_token", try #require(clean["refresh_token"]?.stringValue))])["access_token"]?.stringValue
            }
            try await idp.tamper(.algNone, token: .access, clientID: Self.mobile)
            try await Self.expectAlgNone(idp, "refresh", bad: try await refreshed(), clean: try await refreshed())

            // The v1 endpoint: a v1 ID token, whose header carries x5t too.
            func v1Password() async throws -> String? {
                let reply = try await idp.postForm("/\(Self.contoso)/oauth2/token", [
                    ("grant_type", "password"), ("client_id", Self.mobile), ("username", Self.alice), ("password", "alice-password"),
                    ("resource", "https://graph.microsoft.com")])
                #expect(reply.status == 200, "\(reply.text)")
                return reply.json["id_token"]?.stringValue
            }
            try await idp.tamper(.algNone, token: .id, clientID: Self.mobile)
            let v1Bad = try await v1Password()
            let v1Clean = try await v1Password()
            #expect(try Self.parts(v1Bad).header.contains(#""x5t":"#))
            try await Self.expectAlgNone(idp, "v1 password ID token", bad: v1Bad, clean: v1Clean)

            // Device code.
            try await idp.tamper(.algNone, token: .all, clientID: Self.mobile, count: 2)
            let deviceBad = try await Self.deviceFlow(idp)
            let deviceClean = try await Self.deviceFlow(idp)
            for name in ["id_token", "access_token"] {
                try await Self.expectAlgNone(idp, "device code \(name)", bad: deviceBad[name]?.stringValue, clean: deviceClean[name]?.stringValue)
            }

            // Authorization code, and the front channel's tokens (implicit).
            try await idp.tamper(.algNone, token: .id, clientID: Self.headless)
            try await Self.expectAlgNone(idp, "authorization code", bad: try await Self.redeemedIDToken(idp),
                                         clean: try await Self.redeemedIDToken(idp))
            try await idp.tamper(.algNone, token: .all, clientID: Self.headless, count: 2)
            let implicitBad = try await Self.authorize(idp, responseType: "id_token token")
            let implicitClean = try await Self.authorize(idp, responseType: "id_token token")
            for name in ["id_token", "access_token"] {
                try await Self.expectAlgNone(idp, "implicit \(name)", bad: implicitBad[name], clean: implicitClean[name])
            }

            // Managed identity (IMDS).
            let identity = "7d3c9a10-2b4e-4f61-8a7d-0c5e6f7a8b9c"
            try await idp.addManagedIdentity(MockManagedIdentity(clientID: identity, systemAssigned: true), tenant: Self.contoso)
            func imds() async throws -> String? {
                try await idp.get(idp.managedIdentityEndpoint(.instanceMetadata) + "?api-version=2018-02-01&resource=https%3A%2F%2Fmanagement.azure.com%2F",
                                  headers: ["Metadata": "true"]).json["access_token"]?.stringValue
            }
            try await idp.tamper(.algNone, token: .access, clientID: identity)
            try await Self.expectAlgNone(idp, "managed identity", bad: try await imds(), clean: try await imds())
            #expect(try await idp.pendingFaults().isEmpty)
        }
    }
}
