// Entra's errors for client assertions (certificate credentials) and on-behalf-of user assertions. The codes come
// from Entra's answers quoted in public issues and Microsoft's troubleshooting pages; where only the number is
// documented, the `error` value is marked [INF].
extension OAuthError {
    /// Where Entra's client-assertion messages point.
    static let certificateCredentialsDocumentation = "https://learn.microsoft.com/entra/identity-platform/certificate-credentials"

    /// Entra: AADSTS50027 for an assertion that is not a JWT (seen for client assertions; `error` value [INF]).
    package static func malformedClientAssertion(_ why: String) -> OAuthError {
        OAuthError(code: .invalidClient, aadsts: 50027, message: "JWT token is invalid or malformed.",
                   status: 401, reason: "the client_assertion is not a usable JWT: \(why)")
    }

    /// `client_assertion_type` other than RFC 7523's JWT bearer type ([INF]: Entra's number for it is undocumented).
    package static func unsupportedClientAssertionType(_ type: String) -> OAuthError {
        OAuthError(code: .invalidRequest, aadsts: 90023,
                   message: "Invalid request. The parameter 'client_assertion_type' has an unsupported value '\(type)'.",
                   reason: "client_assertion_type must be urn:ietf:params:oauth:client-assertion-type:jwt-bearer, got '\(type)'")
    }

    /// Entra: AADSTS5002730 when the assertion's `alg` cannot be used with a certificate's key (MSAL.NET issue 4712).
    package static func unsupportedAssertionAlgorithm(_ alg: String) -> OAuthError {
        OAuthError(code: .invalidRequest, aadsts: 5002730, message: "Invalid JWT token. Unsupported key for the signing algorithm.",
                   reason: "the client assertion is signed with '\(alg)'; Entra accepts RS256 (with x5t) or PS256 (with x5t#S256)")
    }

    /// Entra: AADSTS700027 when the assertion names no thumbprint at all, or its encoding names none we know.
    package static func assertionCertificateNotIdentified(clientID: String) -> OAuthError {
        OAuthError(code: .invalidClient, aadsts: 700027,
                   message: "The certificate with identifier used to sign the client assertion is not registered on application. [Reason - The key was not found., Please visit the Azure Portal, Graph Explorer or directly use MS Graph to see configured keys for app Id '\(clientID)'.]",
                   status: 401, reason: "the client assertion's header has neither an x5t nor an x5t#S256 thumbprint that decodes")
    }

    /// Entra: AADSTS700027 "The key was not found" with the client's thumbprint in hex.
    package static func assertionCertificateNotRegistered(thumbprint: String, clientID: String) -> OAuthError {
        OAuthError(code: .invalidClient, aadsts: 700027,
                   message: "Client assertion contains an invalid signature. [Reason - The key was not found., Thumbprint of key used by client: '\(thumbprint)', Please visit the Azure Portal, Graph Explorer or directly use MS Graph to see configured keys for app Id '\(clientID)'.]",
                   status: 401, reason: "no certificate registered for app '\(clientID)' has the thumbprint \(thumbprint)")
    }

    /// Entra: AADSTS700027 when the registered certificate's key does not verify the signature.
    package static func assertionSignatureInvalid(thumbprint: String, notBefore: Int, notAfter: Int) -> OAuthError {
        OAuthError(code: .invalidClient, aadsts: 700027,
                   message: "Client assertion contains an invalid signature. [Reason - The provided signature value did not match the expected signature value., Thumbprint of key used by client: '\(thumbprint)', Found key 'Start=\(EntraTime.iso8601(notBefore)), End=\(EntraTime.iso8601(notAfter))']",
                   status: 401, reason: "the client assertion's signature does not verify with the registered certificate \(thumbprint)")
    }

    /// Entra: AADSTS1000502 for a certificate outside its validity window (Microsoft.Identity.Web's list of
    /// certificate errors, `CertificateIsOutsideValidityWindow`; the message text is [INF]).
    package static func assertionCertificateOutsideValidity(thumbprint: String, notBefore: Int, notAfter: Int) -> OAuthError {
        OAuthError(code: .invalidClient, aadsts: 1000502,
                   message: "The certificate with thumbprint '\(thumbprint)' used to sign the client assertion is outside its validity window (Start=\(EntraTime.iso8601(notBefore)), End=\(EntraTime.iso8601(notAfter))).",
                   status: 401, reason: "the registered certificate \(thumbprint) is expired or not yet valid by the server's clock")
    }

    /// Entra: AADSTS700021 (Azure SDK troubleshooting guide: "Client assertion application identifier doesn't match
    /// 'client_id' parameter").
    package static func assertionClientMismatch(issuer: String, clientID: String) -> OAuthError {
        OAuthError(code: .invalidClient, aadsts: 700021,
                   message: "Client assertion application identifier doesn't match 'client_id' parameter. Review the documentation at \(certificateCredentialsDocumentation) .",
                   status: 401, reason: "the client assertion's iss/sub '\(issuer)' is not the client_id '\(clientID)'")
    }

    /// Entra: AADSTS50048 (msal4j issue 430).
    package static func assertionSubjectNotIssuer() -> OAuthError {
        OAuthError(code: .invalidClient, aadsts: 50048, message: "Subject must match the issuer claim in the client assertion.",
                   status: 401, reason: "the client assertion's sub differs from its iss")
    }

    /// Entra: AADSTS700023 (MSAL.NET issue 2746).
    package static func assertionAudienceMismatch(_ audience: String, expected: String) -> OAuthError {
        OAuthError(code: .invalidClient, aadsts: 700023,
                   message: "Client assertion audience claim does not match Realm issuer. Review the documentation at \(certificateCredentialsDocumentation) .",
                   status: 401, reason: "the client assertion's aud '\(audience)' is not this token endpoint (\(expected))")
    }

    /// Entra: AADSTS700024, with the times Entra prints (1970 when there is no `nbf`).
    package static func assertionOutsideTimeRange(now: Int, notBefore: Int?, expiry: Int) -> OAuthError {
        OAuthError(code: .invalidClient, aadsts: 700024,
                   message: "Client assertion is not within its valid time range. Current time: \(EntraTime.iso8601(now)), assertion valid from \(EntraTime.iso8601(notBefore ?? 0)), expiry time of assertion \(EntraTime.iso8601(expiry)). Review the documentation at \(certificateCredentialsDocumentation) .",
                   status: 401, reason: "the client assertion has expired or is not yet valid (exp/nbf, with 5 minutes of clock skew)")
    }
}

// On-behalf-of (docs/entra-behaviour.md, "Grants").
extension OAuthError {
    /// A user assertion that is not a JWT ([INF]: the same 50027 as for client assertions).
    package static func malformedUserAssertion(_ why: String) -> OAuthError {
        OAuthError(code: .invalidGrant, aadsts: 50027, message: "JWT token is invalid or malformed.",
                   reason: "the on-behalf-of assertion is not a usable JWT: \(why)")
    }

    /// Entra: AADSTS50013 "Assertion failed signature validation" (MSAL.NET issue 1317, azure-sdk-for-java 25109).
    package static func userAssertionSignatureInvalid(keyID: String, keyFound: Bool) -> OAuthError {
        let why = keyFound ? "The provided signature value did not match the expected signature value." : "The key was not found."
        return OAuthError(code: .invalidGrant, aadsts: 50013,
                          message: "Assertion failed signature validation. [Reason - \(why), Thumbprint of key used by client: '\(keyID)']",
                          reason: keyFound ? "the on-behalf-of assertion's signature does not verify with this server's key"
                                           : "the on-behalf-of assertion is signed with a key this server does not publish ('\(keyID)')")
    }

    /// The assertion was not issued by this tenant, or is not a user's delegated access token ([INF]: 50013 as
    /// for other assertions Entra cannot accept).
    package static func userAssertionNotAccepted(_ why: String) -> OAuthError {
        OAuthError(code: .invalidGrant, aadsts: 50013, message: "Assertion failed signature validation. [Reason - \(why)]",
                   reason: "the on-behalf-of assertion is not accepted: \(why)")
    }

    /// Entra: AADSTS7000114 for an app-only token as the on-behalf-of assertion (Entra's error-code reference, added
    /// after MicrosoftDocs/azure-docs issue 65279: "Application {appid} is not allowed to make application
    /// on-behalf-of calls.").
    package static func applicationOnBehalfOfNotAllowed(clientID: String) -> OAuthError {
        OAuthError(code: .unauthorizedClient, aadsts: 7000114,
                   message: "Application '\(clientID)' is not allowed to make application on-behalf-of calls.",
                   reason: "the on-behalf-of assertion is an app-only token (client credentials): there is no user to act for")
    }

    /// Entra: AADSTS500133 (msgraph-sdk-dotnet issue 2551).
    package static func userAssertionExpired(now: Int, expiry: Int) -> OAuthError {
        OAuthError(code: .invalidGrant, aadsts: 500133,
                   message: "Assertion is not within its valid time range. Ensure that the access token is not expired before using it for user assertion, or request a new token. Current time: \(EntraTime.iso8601(now)), expiry time of assertion \(EntraTime.iso8601(expiry)).",
                   reason: "the on-behalf-of assertion has expired (or is not valid yet)")
    }

    /// Entra: AADSTS500131 (microsoft-teams-apps-company-communicator issue 214).
    package static func userAssertionAudienceMismatch(_ audience: String, client: Application) -> OAuthError {
        OAuthError(code: .invalidGrant, aadsts: 500131,
                   message: "Assertion audience does not match the Client app presenting the assertion. The audience in the assertion was '\(audience)' and the expected audience is '\(client.clientID)' or one of the Application Uris of this application with App ID '\(client.clientID)'(\(client.displayName)). The downstream client must request a token for the expected audience (the application that made the OBO request) and this application should use that token as the assertion.",
                   reason: "the on-behalf-of assertion is for '\(audience)', not for the calling app '\(client.clientID)'")
    }

    /// Entra: AADSTS65001 with `suberror: consent_required` (docs/entra-behaviour.md, "AADSTS codes").
    package static func consentRequired(client: Application, scopes: [String], reason: String? = nil) -> OAuthError {
        OAuthError(code: .invalidGrant, aadsts: 65001,
                   message: "The user or administrator has not consented to use the application with ID '\(client.clientID)' named '\(client.displayName)'. Send an interactive authorization request for this user and resource.",
                   suberror: .consentRequired,
                   reason: reason ?? "app '\(client.clientID)' has no apiPermissions for \(scopes.joined(separator: " ")) (on-behalf-of needs consent given beforehand)")
    }

    /// `requested_token_use` other than `on_behalf_of` ([INF]).
    package static func unsupportedRequestedTokenUse(_ value: String) -> OAuthError {
        OAuthError(code: .invalidRequest, aadsts: 90023,
                   message: "Invalid request. The parameter 'requested_token_use' has an unsupported value '\(value)'.",
                   reason: "requested_token_use must be on_behalf_of, got '\(value)'")
    }
}

// Family of client IDs (FOCI).
extension OAuthError {
    /// Entra: a family refresh token presented by an app outside the family is AADSTS70000 with
    /// `error_additional_info: ["client_mismatch"]`, which MSAL reads to stop trying family tokens
    /// (docs/entra-behaviour.md, "Error responses").
    package static func familyRefreshTokenForOtherClient() -> OAuthError {
        var error = OAuthError(code: .invalidGrant, aadsts: 70000, message: "Provided grant is invalid or malformed.", b2c: .grantMalformed,
                               reason: "the refresh token was issued to a family (foci) app and this client is not in the family")
        error.additionalInfo = ["client_mismatch"]
        return error
    }
}
