import MockIDPConfiguration
import MockIDPCore
import Testing

/// `apps[].saml`: decoded, checked, printed back.
@Suite struct SAMLConfigurationTests {
    @Test("saml settings decode into the model and print back; an empty mapping is Entra's defaults")
    func decodesAndPrints() throws {
        let configuration = try ConfigurationLoader.parse(text: """
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            apps:
              - clientId: 3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c
                identifierUris: [https://sp.contoso.com/saml]
                redirectUris: [https://sp.contoso.com/saml/acs]
                saml:
                  signing: both
                  signingAlgorithm: sha1
                  nameIdFormat: persistent
                  nameIdSource: objectId
                  logoutUrl: https://sp.contoso.com/saml/logout
                  relayState: /home
                  wsfedTokenType: saml11
                  attributes: {department: http://schemas.contoso.com/claims/department, level: level}
              - clientId: 9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d
                identifierUris: [urn:fabrikam:sp]
                saml:
        """, fileName: "test.yaml", baseDirectory: ".")
        let apps = try #require(configuration.tenants.first?.apps)
        let saml = try #require(apps[0].saml)
        #expect(saml.signing == .both && saml.signingAlgorithm == .sha1 && saml.nameIDFormat == .persistent)
        #expect(saml.nameIDSource == .objectId && saml.logoutURL == "https://sp.contoso.com/saml/logout")
        #expect(saml.relayState == "/home" && saml.wsfedTokenType == .saml11 && !saml.requireSignedRequests)
        #expect(saml.attributes.map(\.claim) == ["department", "level"])
        #expect(saml.attributes.map(\.attribute) == ["http://schemas.contoso.com/claims/department", "level"])
        #expect(apps[1].saml == SAMLSettings())
        let printed = ConfigurationWriter.yaml(configuration)
        #expect(printed.contains("saml:\n"))
        #expect(printed.contains("signing: both"))
        let reread = try ConfigurationLoader.parse(text: printed, fileName: "printed.yaml", baseDirectory: ".")
        #expect(reread.tenants.first?.apps.first?.saml == saml)
        #expect(reread.tenants.first?.apps.last?.saml == SAMLSettings())
    }

    @Test("unknown keys and words, a bad logout URL, no identifier and signed requests without certificates are refused")
    func problems() {
        #expect(ConfigurationFixtures.problems("""
        tenants:
          - id: 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11
            apps:
              - clientId: 3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c
                identifierUris: [https://sp.contoso.com/saml]
                saml:
                  signing: everything
                  nameIdFormat: email
                  logoutUrl: /logout
                  signingAlgoritm: sha1
                  attributes: [department]
              - clientId: 9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d
                saml: {requireSignedRequests: true}
        """) == [
            "test.yaml:7: tenants[0].apps[0].saml.signing: must be one of assertion, response, both",
            "test.yaml:8: tenants[0].apps[0].saml.nameIdFormat: must be one of default, persistent, emailAddress, unspecified, transient, windowsDomainQualifiedName",
            "test.yaml:9: tenants[0].apps[0].saml.logoutUrl: must be an absolute http or https URL without a fragment",
            "test.yaml:10: tenants[0].apps[0].saml: unknown key 'signingAlgoritm'; did you mean 'signingAlgorithm'?",
            "test.yaml:11: tenants[0].apps[0].saml.attributes: must be a mapping of claim names to attribute names",
            "test.yaml:13: tenants[0].apps[1].saml: a SAML app needs its Identifier (entity ID) in identifierUris",
            "test.yaml:13: tenants[0].apps[1].saml: requireSignedRequests needs the app's certificates, which verify the requests",
        ])
    }
}
