import MockIDPJOSE
import MockIDPTesting
import Testing

/// An External ID tenant built in a test (`ConfigurationSource.externalID`), driven through MockIDPTesting's
/// native-auth helpers and outbox in both modes.
@Suite struct MockExternalIDTenantTests {
    static let tenant = MockExternalIDTenant(
        id: "5e7a9c1b-3d5f-4b7a-9c1e-3f5a7b9d1c2e", subdomain: "tailspincustomers", name: "Tailspin", signIn: "otp",
        attributes: ["givenName"],
        users: [MockUser(username: "fay@example.com", password: "")],
        apps: [MockApp(clientID: "7a9c1e3b-5d7f-4a9c-b1e3-5a7c9e1b3d5f", type: "public", redirectURIs: ["http://localhost"], nativeAuth: true)])

    @Test("a code-only tenant signs a user in and a new one up with the codes the outbox holds",
          arguments: MockIdentityProviderMode.allCases)
    func codes(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: .externalID(Self.tenant), mode: mode) { idp in
            let app = Self.tenant.apps[0].clientID
            let fay = try await idp.nativeAuthSignIn(tenant: "tailspincustomers.onmicrosoft.com", clientID: app, username: "fay@example.com")
            #expect(fay.idTokenClaims?["preferred_username"] == "fay@example.com")
            #expect(fay.idTokenClaims?["tid"] == .string(Self.tenant.id))
            let gus = try await idp.nativeAuthSignUp(tenant: Self.tenant.id, clientID: app, username: "gus@example.com",
                                                     attributes: ["givenName": "Gus"])
            #expect(gus.idTokenClaims?["preferred_username"] == "gus@example.com" && gus.refreshToken != nil)
            let outbox = try await idp.outbox()
            #expect(outbox.map(\.purpose) == ["signIn", "signUp"] && outbox.map(\.to) == ["fay@example.com", "gus@example.com"])
            #expect(outbox.allSatisfy { $0.code.count == 8 })
            try await idp.reset()
            #expect(try await idp.outbox().isEmpty)
        }
    }
}
