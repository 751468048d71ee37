import MockIDPCore
import MockIDPJOSE
import Testing

@Suite struct DeviceCodeTests {
    let clock = ProviderClock.fixed(Fixtures.now)

    func start(_ provider: IdentityProvider) throws -> (deviceCode: String, userCode: String) {
        guard case .success(let r) = provider.deviceAuthorization(
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
        let pending = try #require(provider.deviceLogin(userCode: user.lowercased(), directory: provider.snapshot()))
        #expect(pending.client.clientID == Fixtures.mobile)
        let tenant = try #require(provider.snapshot().configuration.tenants.first)
        provider.completeDeviceLogin(userCode: pending.userCode, user: tenant.users[0], tenant: tenant)
        clock.advance(by: 5)
        #expect(Fixtures.claims(poll(provider, device).body?["id_token"]?.stringValue)["oid"] == .string(Fixtures.aliceOID))
        #expect(poll(provider, device).error?.code == .badVerificationCode)
        #expect(provider.deviceLogin(userCode: user, directory: provider.snapshot()) == nil)
    }

    @Test("a declined or expired code ends polling; unknown codes and clients are refused")
    func declinedAndExpired() throws {
        let provider = Fixtures.provider(clock: clock)
        let (device, user) = try start(provider)
        provider.completeDeviceLogin(userCode: user, user: nil, tenant: nil)
        #expect(poll(provider, device).error?.code == .authorizationDeclined)
        let (second, _) = try start(provider)
        clock.advance(by: 901)
        #expect(poll(provider, second).error?.code == .expiredToken)
        #expect(poll(provider, "nope").error?.code == .badVerificationCode)
        guard case .failure(let e) = provider.deviceAuthorization(tenant: Fixtures.contosoID,
            parameters: [(name: "client_id", value: "00000000-0000-0000-0000-0000000000ee"), (name: "scope", value: "openid")],
            context: provider.testScope()) else { Issue.record("expected failure"); return }
        #expect(e.aadsts == 700016)
    }
}
