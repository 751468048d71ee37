import MockIDPConfiguration
import MockIDPCore
import Testing

/// `apps[].optionalClaims`: decoded, checked (known names, the right token), printed back.
@Suite struct OptionalClaimsConfigurationTests {
    @Test("optionalClaims decode into the model and print back")
    func decodesAndPrints() throws {
        let configuration = try ConfigurationLoader.parse(text: """
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            apps:
              - clientId: 3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c
                optionalClaims:
                  idToken: [email, upn, ipaddr, auth_time]
                  accessToken: [email, idtyp]
        """, fileName: "test.yaml", baseDirectory: ".")
        let app = try #require(configuration.tenants.first?.apps.first)
        #expect(app.optionalClaims == OptionalClaims(idToken: [.email, .userPrincipalName, .ipAddress, .authTime],
                                                     accessToken: [.email, .identityType]))
        let printed = ConfigurationWriter.yaml(configuration)
        #expect(printed.contains("optionalClaims:\n"))
        #expect(printed.contains("idToken: [email, upn, ipaddr, auth_time]"))
        let reread = try ConfigurationLoader.parse(text: printed, fileName: "printed.yaml", baseDirectory: ".")
        #expect(reread.tenants.first?.apps.first?.optionalClaims == app.optionalClaims)
    }

    @Test("an unknown name gets a suggestion; a claim of another token, a repeat and a wrong key are refused")
    func problems() {
        #expect(ConfigurationFixtures.problems("""
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            apps:
              - clientId: 3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c
                optionalClaims:
                  idToken: [emial, idtyp, upn, upn, nickname]
                  acessToken: [email]
              - {clientId: 9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d, optionalClaims: [email]}
        """) == [
            "test.yaml:6: tenants[0].apps[0].optionalClaims.idToken[3]: 'upn' is already listed at line 6",
            "test.yaml:6: tenants[0].apps[0].optionalClaims.idToken[0]: unknown optional claim 'emial'; did you mean 'email'?",
            "test.yaml:6: tenants[0].apps[0].optionalClaims.idToken[1]: 'idtyp' is an optional claim of accessToken only, not of idToken",
            "test.yaml:6: tenants[0].apps[0].optionalClaims.idToken[4]: unknown optional claim 'nickname'",
            "test.yaml:7: tenants[0].apps[0].optionalClaims: unknown key 'acessToken'; did you mean 'accessToken'?",
            "test.yaml:8: tenants[0].apps[1].optionalClaims: must be a mapping with idToken and accessToken lists",
        ])
    }
}
