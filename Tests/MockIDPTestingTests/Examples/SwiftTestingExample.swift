import MockIDPTesting
import Testing

// A Swift Testing suite that brings its own identity provider: a tenant, a user, a daemon and an API.
// withMockIdentityProvider starts it on a free port in this process and always stops it.
@Suite struct OrdersAPITests {
    static let configuration = """
        tenants:
          - id: 11111111-2222-4333-8444-555555555555
            domains: [shop.example]
            users:
              - username: dana@shop.example
                password: dana-password
                roles: [Buyer]
            apps:
              - clientId: aaaaaaaa-0000-4000-8000-000000000001   # the Orders API
                identifierUris: [api://orders]
                scopes: [orders.read]
                appRoles: [Orders.Sync]
                accessTokenVersion: 2
              - clientId: aaaaaaaa-0000-4000-8000-000000000002   # a nightly job
                secret: job-secret
                apiPermissions: {api://orders: [Orders.Sync]}
              - clientId: aaaaaaaa-0000-4000-8000-000000000003   # the shop's mobile app
                type: public
                redirectUris: [http://localhost]
                apiPermissions: {api://orders: [orders.read]}
        """

    @Test("the nightly job gets an app-only token for the Orders API")
    func nightlyJob() async throws {
        try await withMockIdentityProvider(configuration: .yaml(Self.configuration)) { idp in
            // Your code under test would take idp.authority(tenant: "shop.example") as its authority.
            let tokens = try await idp.clientCredentialsToken(
                tenant: "shop.example", clientID: "aaaaaaaa-0000-4000-8000-000000000002",
                secret: "job-secret", scope: "api://orders/.default")
            #expect(tokens.claims["aud"] == "aaaaaaaa-0000-4000-8000-000000000001")
            #expect(tokens.claims["roles"] == ["Orders.Sync"])
            #expect(tokens.claims["iss"] == .string(idp.authority(tenant: "11111111-2222-4333-8444-555555555555") + "/v2.0"))
        }
    }

    @Test("a wrong secret is refused with Entra's AADSTS7000215")
    func wrongSecret() async throws {
        try await withMockIdentityProvider(configuration: .yaml(Self.configuration)) { idp in
            let error = await #expect(throws: TokenRequestError.self) {
                try await idp.clientCredentialsToken(
                    tenant: "shop.example", clientID: "aaaaaaaa-0000-4000-8000-000000000002",
                    secret: "not-the-secret", scope: "api://orders/.default")
            }
            #expect(error?.status == 401)
            #expect(error?.error == "invalid_client")
            #expect(error?.errorCodes == [7000215])
        }
    }
}
