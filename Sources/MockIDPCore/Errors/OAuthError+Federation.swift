// Entra's errors for federated client assertions (workload identity federation), in the order the checks run.
// Texts as Entra sends them, quoted in public issues: 70021 (external-secrets issue 2783, 2023: invalid_client,
// 401; older answers were invalid_request, 400), 700211 (azure-workload-identity issues 1200, 1350), 700212
// (a captured answer in a public test fixture: "presented assertion audience 'my.audience'"), 700213
// (dotnet/maui pull request 31978, 2025), 7000272 (azure-workload-identity issues 616, 1232), 90061
// (azure-workload-identity issue 605); 700027's text is the error-code reference's.
extension OAuthError {
    /// Where Entra's federation messages point.
    static let workloadIdentityFederationDocumentation = "https://learn.microsoft.com/entra/workload-id/workload-identity-federation"

    /// Entra: AADSTS70021 when the app has no federated credential at all.
    package static func noFederatedCredential(issuer: String, subject: String, audience: String) -> OAuthError {
        OAuthError(code: .invalidClient, aadsts: 70021,
                   message: "No matching federated identity record found for presented assertion. Assertion Issuer: '\(issuer)'. Assertion Subject: '\(subject)'. Assertion Audience: '\(audience)'. \(workloadIdentityFederationDocumentation)",
                   status: 401, reason: "the client assertion is a federated token from '\(issuer)', and the app has no federatedCredentials")
    }

    /// Entra: AADSTS700211 when no federated credential of the app names the assertion's issuer.
    package static func federatedIssuerNotFound(_ issuer: String) -> OAuthError {
        noMatchingFederatedRecord(700211, claim: "issuer", value: issuer,
                                  reason: "no federated credential of the app has the issuer '\(issuer)' (compared exactly, case included)")
    }

    /// Entra: AADSTS700212 when credentials with this issuer exist but none lists an audience the token names.
    package static func federatedAudienceNotFound(_ audience: String) -> OAuthError {
        noMatchingFederatedRecord(700212, claim: "audience", value: audience,
                                  reason: "no federated credential with this issuer lists the audience '\(audience)'")
    }

    /// Entra: AADSTS700213 when credentials with this issuer and audience exist but none has the token's subject.
    package static func federatedSubjectNotFound(_ subject: String) -> OAuthError {
        noMatchingFederatedRecord(700213, claim: "subject", value: subject,
                                  reason: "no federated credential with this issuer and audience has the subject '\(subject)' (compared exactly, case included)")
    }

    /// Entra's one text for 700211, 700212 and 700213, naming the claim that found no federated credential.
    private static func noMatchingFederatedRecord(_ aadsts: Int, claim: String, value: String, reason: String) -> OAuthError {
        OAuthError(code: .invalidClient, aadsts: aadsts,
                   message: "No matching federated identity record found for presented assertion \(claim) '\(value)'. Check your federated identity credential Subject, Audience and Issuer against the presented assertion. \(workloadIdentityFederationDocumentation)",
                   status: 401, reason: reason)
    }

    /// Entra: AADSTS7000272 when the issuer's key set holds no key with the token's `kid`.
    package static func federatedKeyNotFound(keyID: String, issuer: String) -> OAuthError {
        OAuthError(code: .invalidClient, aadsts: 7000272,
                   message: "The certificate with identifier \(keyID) used to sign the federated credential could not be found in the metadata of identity provider \(issuer). Please validate that your Identity Provider's metadata exposes the key used to sign the incoming token.",
                   status: 401, reason: "the key set of '\(issuer)' has no key '\(keyID)'")
    }

    /// Entra: AADSTS700027 when the federated token's signature does not verify (or uses an algorithm other than
    /// RS256, the only one Entra supports for federation: Microsoft Learn, "Supported signing algorithms and issuers").
    package static func federatedSignatureInvalid(_ why: String) -> OAuthError {
        OAuthError(code: .invalidClient, aadsts: 700027, message: "Client assertion failed signature validation.",
                   status: 401, reason: "the federated token's signature does not verify: \(why)")
    }

    /// Entra: AADSTS90061 when the issuer's key set cannot be had.
    package static func federatedKeySetUnavailable(issuer: String, why: String) -> OAuthError {
        OAuthError(code: .invalidRequest, aadsts: 90061, message: "Request to External OIDC endpoint failed.",
                   reason: "the key set of '\(issuer)' cannot be had: \(why)")
    }
}
