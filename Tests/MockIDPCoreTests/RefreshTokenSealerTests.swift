@testable import MockIDPCore
import Testing

@Suite struct RefreshTokenSealerTests {
    static let grant = RefreshGrant(tenantID: "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11", clientID: "3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c",
                                    userObjectID: "0c3e9d2a-5b7f-4e1a-9c8d-1f2e3d4c5b6a", username: "alice@contoso.onmicrosoft.com",
                                    scope: "openid profile offline_access User.Read", clientAuthentication: .none,
                                    issuedAt: 1_800_000_000, expiresAt: 1_800_086_400, family: true, policy: "B2C_1_susi",
                                    resource: "https://graph.microsoft.com/")

    @Test("a refresh token carries its grant: the same sealer reads it back whole, another sealer (another process, after a reset) reads nothing")
    func carriesItsGrant() throws {
        let sealer = RefreshTokenSealer()
        let token = sealer.token(for: Self.grant)
        #expect(token.hasPrefix("1.A"))
        #expect(sealer.grant(in: token) == Self.grant)
        var plain = Self.grant
        plain.family = false
        plain.policy = nil
        plain.resource = nil
        #expect(sealer.grant(in: sealer.token(for: plain)) == plain)
        #expect(RefreshTokenSealer().grant(in: token) == nil)
        #expect(!token.contains("alice"), "the grant is sealed, not just encoded")
    }

    @Test("anything but a token of this sealer is no grant: forged, cut, changed, foreign, huge")
    func refusesTheRest() {
        let sealer = RefreshTokenSealer()
        let token = sealer.token(for: Self.grant)
        var changed = Array(token)
        changed[token.count / 2] = changed[token.count / 2] == "A" ? "B" : "A"
        for bad in ["", "1.A", "1.Anot-base64!", String(token.dropLast(2)), String(changed), "0.A" + token.dropFirst(3),
                    "1.A" + String(repeating: "A", count: 70_000)] {
            #expect(sealer.grant(in: bad) == nil, "\(bad.prefix(40))")
        }
    }

    @Test("a reset through the control API ends every refresh token issued before it")
    func resetEndsTokens() throws {
        let provider = IdentityProvider(configuration: Fixtures.configuration, signingKeys: [Fixtures.signingKey], clock: .fixed(Fixtures.now))
        let token = provider.refreshTokens.seal(Self.grant)
        #expect(provider.refreshTokens.open(token) != nil)
        provider.reset()
        #expect(provider.refreshTokens.open(token) == nil)
    }
}
