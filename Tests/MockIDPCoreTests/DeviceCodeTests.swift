@testable import MockIDPCore
import MockIDPJOSE
import Testing

@Suite struct DeviceCodeTests {
    let clock = ProviderClock.fixed(Fixtures.now)

    func start(_ provider: IdentityProvider) throws -> (deviceCode: String, userCode: String) {
        guard case .success(let r) = provider.deviceFlow.deviceAuthorization(
            tenant: Fixtures.contosoID, parameters: [(name: "client_id", value: Fixtures.mobile), (name: "scope", value: "User.Read openid")],
            context: provider.testScope()) else { throw OAuthError.badVerificationCode() }
        #expect(r["verification_uri"] == "https://localhost:8443/devicelogin")
        #expect(r["interval"] == 5 && r["expires_in"] == 900)
        return (try #require(r["device_code"]?.stringValue), try #require(r["user_code"]?.stringValue))
    }

    func poll(_ provider: IdentityProvider, _ code: String) -> Result<TokenResponse, OAuthError> {
        Fixtures.token(provider, [("grant_type", "urn:ietf:params:oauth:grant-type:device_code"), ("client_id", Fixtures.mobile),
                                  ("code", code), ("device_code", code), ("client_info", "1")])
    }

    @Test("polling answers pending, slow_down when too fast, then tokens once the user signs in, then nothing")
    func approved() throws {
        let provider = Fixtures.provider(clock: clock)
        let (device, user) = try start(provider)
        #expect(poll(provider, device).error?.code == .authorizationPending)
        #expect(poll(provider, device).error?.code == .slowDown)
        clock.advance(by: 5)
        #expect(poll(provider, device).error?.code == .authorizationPending)
        let pending = try #require(provider.deviceFlow.deviceLogin(userCode: user.lowercased(), directory: provider.snapshot()))
        #expect(pending.client.clientID == Fixtures.mobile)
        let tenant = try #require(provider.snapshot().configuration.tenants.first)
        provider.deviceFlow.completeDeviceLogin(userCode: pending.userCode, user: tenant.users[0], tenant: tenant)
        clock.advance(by: 5)
        #expect(Fixtures.claims(poll(provider, device).body?["id_token"]?.stringValue)["oid"] == .string(Fixtures.aliceOID))
        #expect(poll(provider, device).error?.code == .badVerificationCode)
        #expect(provider.deviceFlow.deviceLogin(userCode: user, directory: provider.snapshot()) == nil)
    }

    @Test("a declined or expired code ends polling; unknown codes and clients are refused")
    func declinedAndExpired() throws {
        let provider = Fixtures.provider(clock: clock)
        let (device, user) = try start(provider)
        provider.deviceFlow.completeDeviceLogin(userCode: user, user: nil, tenant: nil)
        #expect(poll(provider, device).error?.code == .authorizationDeclined)
        let (second, _) = try start(provider)
        clock.advance(by: 901)
        #expect(poll(provider, second).error?.code == .expiredToken)
        #expect(poll(provider, "nope").error?.code == .badVerificationCode)
        guard case .failure(let e) = provider.deviceFlow.deviceAuthorization(tenant: Fixtures.contosoID,
            parameters: [(name: "client_id", value: "00000000-0000-0000-0000-0000000000ee"), (name: "scope", value: "openid")],
            context: provider.testScope()) else { Issue.record("expected failure"); return }
        #expect(e.aadsts == 700016)
    }

    func deviceAuthorization(_ provider: IdentityProvider, _ parameters: [(String, String)],
                             version: ProtocolVersion = .v2) -> Result<JSONValue, OAuthError> {
        provider.deviceFlow.deviceAuthorization(tenant: Fixtures.contosoID, parameters: parameters.map { (name: $0.0, value: $0.1) },
                                     version: version, context: provider.testScope())
    }

    @Test("a scope (or v1 resource) longer than a code keeps is refused with AADSTS70011 before anything is stored")
    func overlongScopeRefused() throws {
        let provider = Fixtures.provider(clock: clock)
        // Hundreds of KB, under the body limit: each request would have kept its scope for 15 minutes.
        let huge = "openid " + Array(repeating: "User.Read", count: 50_000).joined(separator: " ")
        for _ in 0..<3 {
            guard case .failure(let e) = deviceAuthorization(provider, [("client_id", Fixtures.mobile), ("scope", huge)]) else {
                Issue.record("a scope of \(huge.utf8.count) bytes was accepted")
                return
            }
            #expect(e.code == .invalidScope && e.aadsts == 70011)
            #expect(e.message.utf8.count < 1_000 && e.reason.utf8.count < 1_000, "the error quotes the scope")
        }
        let resource = "api://" + String(repeating: "r", count: ScopeRequest.maximumLength)
        guard case .failure(let v1) = deviceAuthorization(provider, [("client_id", Fixtures.mobile), ("resource", resource)], version: .v1) else {
            Issue.record("a v1 resource of \(resource.utf8.count) bytes was accepted")
            return
        }
        #expect(v1.aadsts == 70011)
        #expect(provider.deviceCodes.count == 0 && provider.deviceCodes.keptBytes == 0)
        // At the limit it is kept, as any scope is.
        let words = Array(repeating: "User.Read", count: 10_000).joined(separator: " ")
        let longest = String(decoding: ("openid " + words).utf8.prefix(ScopeRequest.maximumLength - 9), as: UTF8.self).split(separator: " ").dropLast().joined(separator: " ")
        #expect(longest.utf8.count <= ScopeRequest.maximumLength && longest.utf8.count > ScopeRequest.maximumLength - 20)
        guard case .success = deviceAuthorization(provider, [("client_id", Fixtures.mobile), ("scope", longest)]) else {
            Issue.record("a scope within the limit was refused")
            return
        }
        #expect(provider.deviceCodes.count == 1)
    }

    @Test("the device-code store keeps at most its byte bound of client text, whatever clients send")
    func storeBoundedInBytes() {
        var store = DeviceCodeStore()
        let scope = String(repeating: "s", count: ScopeRequest.maximumLength)
        for i in 0..<5_000 {
            store.insert(deviceCode: "d\(i)", DeviceAuthorization(userCode: "U\(i)", clientID: Fixtures.mobile, tenantSegment: Fixtures.contosoID,
                                                               scope: scope, expiresAt: Fixtures.now + 900, interval: 5, lastPoll: nil,
                                                               status: .pending), now: Fixtures.now)
            #expect(store.keptBytes <= DeviceAuthorization.keptBytesCapacity)
        }
        #expect(store.count <= DeviceAuthorization.keptBytesCapacity / ScopeRequest.maximumLength)
        #expect(store[deviceCode: "d4999"] != nil)
    }
}
