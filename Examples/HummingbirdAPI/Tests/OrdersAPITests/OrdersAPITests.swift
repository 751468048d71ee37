import AsyncHTTPClient
import Hummingbird
import HummingbirdTesting
import JWTKit
import MockIDPTesting
import OrdersAPI
import Testing

/// The Orders API against mockidp, started in the test process by MockIDPTesting: the probe sends every route one
/// clean token and one token per defect; tokens of the real flows go over the API's own listener.
@Suite struct OrdersAPITests {
    static let tenant = "11111111-2222-4333-8444-555555555555"
    static let api = "aaaaaaaa-0000-4000-8000-000000000001"
    static let nightlyJob = "aaaaaaaa-0000-4000-8000-000000000002"
    static let shopApp = "aaaaaaaa-0000-4000-8000-000000000003"
    static let configuration = """
        tenants:
          - id: 11111111-2222-4333-8444-555555555555
            domains: [shop.example]
            users:
              - username: dana@shop.example
                password: dana-password
            apps:
              - clientId: aaaaaaaa-0000-4000-8000-000000000001   # the Orders API
                identifierUris: [api://orders]
                scopes: [orders.read]
                appRoles: [Orders.Sync]
                accessTokenVersion: 2
              - clientId: aaaaaaaa-0000-4000-8000-000000000002   # a nightly job: app-only tokens, no scp
                secret: job-secret
                apiPermissions: {api://orders: [Orders.Sync]}
              - clientId: aaaaaaaa-0000-4000-8000-000000000003   # the shop's app
                type: public
                redirectUris: [http://localhost]
                apiPermissions: {api://orders: [orders.read]}
        """

    /// The API's settings for the tenant `idp` serves.
    static func settings(_ idp: MockIdentityProvider) -> EntraTokenValidator.Settings {
        EntraTokenValidator.Settings(authority: idp.authority(tenant: tenant), tenantID: tenant, audiences: [api, "api://orders"],
                                     requiredScope: "orders.read", allowedClients: [shopApp, nightlyJob])
    }

    static func application(_ idp: MockIdentityProvider, keyRefreshInterval: Double = 300) -> some ApplicationProtocol {
        var settings = settings(idp)
        settings.keyRefreshInterval = keyRefreshInterval
        var careless = settings
        careless.checksAudience = false
        return Application(router: buildRouter(validator: EntraTokenValidator(settings),
                                               carelessValidator: EntraTokenValidator(careless)))
    }

    /// Dana's delegated token for the Orders API, from the password flow of the shop's app.
    static func danasToken(_ idp: MockIdentityProvider) async throws -> String {
        try await idp.passwordToken(tenant: tenant, clientID: shopApp, username: "dana@shop.example", password: "dana-password",
                                    scopes: ["api://orders/orders.read"]).accessToken
    }

    /// Probes `path` through the router in-process with dana's delegated tokens for the shop's app.
    static func probe(_ path: String) async throws -> ProbeReport {
        try await withMockIdentityProvider(configuration: .yaml(configuration)) { idp in
            try await application(idp).test(.router) { client in
                try await idp.probe(tenant: tenant, clientID: shopApp, username: "dana@shop.example",
                                    scopes: ["api://orders/orders.read"]) { token in
                    try await client.execute(uri: path, method: .get, headers: [.authorization: "Bearer \(token)"]).status.code
                }
            }
        }
    }

    @Test("GET /orders accepts the clean token and refuses each of the 14 defects an access token can carry")
    func everyDefectRefused() async throws {
        let report = try await Self.probe("/orders")
        #expect(report.passed, "\(report)")
        #expect(report.verdicts.first?.defect == nil && report.verdicts.first?.status == 200)
        #expect(report.verdicts.count == 15)
        #expect(report.verdicts.dropFirst().allSatisfy { $0.status == 401 }, "\(report)")
        // The nonce and hash defects are an ID token's: an access token cannot carry them.
        #expect(Set(report.skipped) == [.wrongNonce, .noNonce, .badCodeHash, .badAccessTokenHash])
    }

    @Test("the probe catches the route that forgot the audience check, and only that")
    func missingAudienceCheckCaught() async throws {
        let report = try await Self.probe("/careless/orders")
        #expect(!report.passed)
        #expect(report.failures.map(\.defect) == [.wrongAudience])
        #expect(report.failures.first?.status == 200)
    }

    @Test("over the API's own listener: a token of the password flow is accepted, the same with a tamper fault is not")
    func realFlowOverTheListener() async throws {
        try await withMockIdentityProvider(configuration: .yaml(Self.configuration)) { idp in
            try await Self.application(idp).test(.live) { client in
                func get(_ token: String?) async throws -> TestResponse {
                    try await client.execute(uri: "/orders", method: .get,
                                             headers: token.map { [.authorization: "Bearer \($0)"] } ?? [:])
                }
                let accepted = try await get(try await Self.danasToken(idp))
                #expect(accepted.status == .ok)
                #expect(String(decoding: accepted.body.readableBytesView, as: UTF8.self).contains("dana@shop.example"))

                try await idp.tamper(.expired, token: .access, clientID: Self.shopApp)
                let expired = try await get(try await Self.danasToken(idp))
                #expect(expired.status == .unauthorized)
                #expect(expired.headers[.wwwAuthenticate] == #"Bearer error="invalid_token""#)

                let none = try await get(nil)
                #expect(none.status == .unauthorized && none.headers[.wwwAuthenticate] == "Bearer")

                // The nightly job may call, but its app-only token grants no delegated scope.
                let appOnly = try await idp.clientCredentialsToken(tenant: Self.tenant, clientID: Self.nightlyJob,
                                                                   secret: "job-secret", scope: "api://orders/.default")
                let forbidden = try await get(appOnly.accessToken)
                #expect(forbidden.status == .forbidden)
                #expect(forbidden.headers[.wwwAuthenticate]?.contains(#"error="insufficient_scope""#) == true)
            }
        }
    }

    @Test("after a key rotation the API fetches the key set again for the new kid (once its refresh interval allows)")
    func keyRotation() async throws {
        try await withMockIdentityProvider(configuration: .yaml(Self.configuration)) { idp in
            let before = try await Self.danasToken(idp)
            // Two instances of the API, each with its own key cache, filled before the rotation.
            let eager = Self.application(idp, keyRefreshInterval: 0)
            let cached = Self.application(idp, keyRefreshInterval: 300)
            try await eager.test(.router) { eagerClient in
                try await cached.test(.router) { cachedClient in
                    func status(_ client: some TestClientProtocol, _ token: String) async throws -> HTTPResponse.Status {
                        try await client.execute(uri: "/orders", method: .get, headers: [.authorization: "Bearer \(token)"]).status
                    }
                    #expect(try await status(eagerClient, before) == .ok)
                    #expect(try await status(cachedClient, before) == .ok)
                    try await idp.rotateKeys()
                    let after = try await Self.danasToken(idp)
                    #expect(try await status(eagerClient, after) == .ok)
                    // Fetched less than five minutes ago: the new kid stays unknown until the interval has passed.
                    #expect(try await status(cachedClient, after) == .unauthorized)
                    #expect(try await status(eagerClient, before) == .ok)
                }
            }
        }
    }

    @Test("what jwt-kit leaves to the API: it verifies a token without a kid with its default key; the validator refuses it")
    func jwtKitAlone() async throws {
        try await withMockIdentityProvider(configuration: .yaml(Self.configuration)) { idp in
            func get(_ request: HTTPClientRequest) async throws -> String {
                let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
                return String(decoding: try await response.body.collect(upTo: 1 << 20).readableBytesView, as: UTF8.self)
            }
            let keys = try await JWTKeyCollection().add(jwksJSON: try await get(HTTPClientRequest(url: idp.keySetURL(tenant: Self.tenant))))
            try await idp.tamper(.noKeyID, token: .access, clientID: Self.shopApp)
            // By hand: MockIDPTesting's token helpers verify what they return, and a token without a kid fails that.
            var request = HTTPClientRequest(url: idp.tokenEndpoint(tenant: Self.tenant))
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: "grant_type=password&client_id=\(Self.shopApp)&username=dana%40shop.example"
                + "&password=dana-password&scope=api%3A%2F%2Forders%2Forders.read"))
            let body = try await get(request)
            let token = try #require(body.firstMatch(of: /"access_token":"([^"]+)"/)?.output.1)
            #expect(try await keys.verify(String(token), as: EntraAccessToken.self).tid == Self.tenant)
            await #expect(throws: EntraTokenError.self) { try await EntraTokenValidator(Self.settings(idp)).validate(String(token)) }
        }
    }
}
