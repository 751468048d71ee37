import MockIDPJOSE
import MockIDPTesting
import Testing

/// `MockApp.federatedCredentials`: the body it sends, and a token of one tenant app exchanged by another app through
/// a federated credential added at run time.
@Suite struct MockFederatedCredentialTests {
    static let contoso = "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11"
    static let importer = "0e1f2a3b-4c5d-4e6f-8a7b-9c0d1e2f3a4b"

    @Test("federatedCredentials are sent under their configuration keys, and make the app confidential")
    func body() {
        let app = MockApp(clientID: Self.importer, federatedCredentials: [
            MockFederatedCredential(issuer: "https://token.actions.githubusercontent.com", subject: "repo:contoso/app:ref:refs/heads/main",
                                    audiences: ["api://AzureADTokenExchange"]),
        ])
        #expect(app.json["federatedCredentials"] == [["issuer": "https://token.actions.githubusercontent.com",
                                                      "subject": "repo:contoso/app:ref:refs/heads/main",
                                                      "audiences": ["api://AzureADTokenExchange"]]])
    }

    @Test("a token of this server's tenant is another app's credential once a federated credential names its iss, sub and aud")
    func exchange() async throws {
        try await withMockIdentityProvider { idp in
            let daemon = try await idp.clientCredentialsToken(tenant: Self.contoso, clientID: "9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d",
                                                              secret: "daemon-secret", scope: "api://contoso-api/.default")
            let claims = daemon.claims
            let issuer = try #require(claims["iss"]?.stringValue), subject = try #require(claims["sub"]?.stringValue)
            let audience = try #require(claims["aud"]?.stringValue)
            try await idp.addApp(MockApp(clientID: Self.importer,
                                         federatedCredentials: [MockFederatedCredential(issuer: issuer, subject: subject, audiences: [audience])],
                                         apiPermissions: [(api: "api://contoso-api", values: ["Reader"])]), tenant: Self.contoso)
            let exchanged = try await idp.token(tenant: Self.contoso, parameters: [
                ("grant_type", "client_credentials"), ("client_id", Self.importer), ("scope", "api://contoso-api/.default"),
                ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"),
                ("client_assertion", daemon.accessToken),
            ])
            #expect(exchanged.claims["azp"]?.stringValue == Self.importer)
            #expect(exchanged.claims["roles"] == ["Reader"])
            let refused = await #expect(throws: ControlAPIError.self) {
                try await idp.addApp(MockApp(clientID: Self.importer, federatedCredentials: [
                    MockFederatedCredential(issuer: "https://nobody.example", subject: "s", audiences: ["a"])]), tenant: Self.contoso)
            }
            #expect(refused?.status == 400 && refused?.body.contains("is not trusted") == true)
        }
    }
}
