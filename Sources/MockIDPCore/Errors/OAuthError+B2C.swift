// Azure AD B2C's own errors, and B2C's words for errors Entra has too. Codes and texts from B2C's error-code reference
// (https://learn.microsoft.com/azure/active-directory-b2c/error-codes) and its troubleshooting page (AADB2C90118,
// AADB2C90091); each says where an [INF] choice was made.
extension OAuthError {
    /// B2C: a policy the tenant does not have. B2C's front end has no resource at such a path and answers every
    /// endpoint with its web server's HTML 404 page ("404 - File or directory not found."), never an OAuth error:
    /// the token endpoint (MicrosoftDocs/azure-docs#24079, the response quoted with `Content-Type: text/html`),
    /// authorize (azure-ad-b2c/samples#279 with `?p=`, Daniel-Krzyczkowski/Cars-Island-On-Azure#4 in the path) and
    /// the metadata document (AzureADQuickStarts/B2C-WebApp-OpenIDConnect-NodeJS#9,
    /// Azure-Samples/active-directory-b2c-dotnet-webapp-and-webapi#61). AADB2C90022 is the error of B2C's SAML
    /// metadata, not of these endpoints.
    package static func policyNotFound(_ policy: String, tenant: String) -> OAuthError {
        .missingB2CResource(reason: "the B2C tenant '\(tenant)' has no policy (user flow) named '\(policy)': B2C answers its 404 page")
    }

    /// B2C: a B2C tenant reached without a policy (no `/{policy}/` segment and no `?p=`). B2C has no tenant-wide
    /// endpoints ("each policy is a separate authorization server", AzureAD/microsoft-identity-web#456), so the
    /// same 404 page answers: the token endpoint without `p=` (MicrosoftDocs/azure-docs#24079), authorize without
    /// it (MaikuB/flutter_appauth#62), the metadata document (AzureAD/passport-azure-ad#418).
    package static func policyRequired(tenant: String) -> OAuthError {
        .missingB2CResource(reason: "'\(tenant)' is a B2C tenant: name a policy in the path (/{tenant}/{policy}/…) or as ?p={policy}; without one B2C answers its 404 page")
    }

    private static func missingB2CResource(reason: String) -> OAuthError {
        var e = OAuthError(code: .notFound, message: "404 - File or directory not found.", status: 404, reason: reason)
        e.isMissingResource = true
        return e
    }

    /// A policy path or `?p=` on a tenant that is not a B2C tenant.
    package static func notB2CTenant(_ tenant: String, policy: String, status: Int = 400) -> OAuthError {
        .b2cOnly(.invalidRequest, b2cCode: "AADB2C90022",
                 message: "Unable to return metadata for the policy '\(policy)' in tenant '\(tenant)'.", status: status,
                 reason: "the tenant '\(tenant)' is not a B2C tenant (it has no b2c: section), so it has no policy '\(policy)'")
    }

    /// "Forgot your password?" on a sign-up/sign-in page: the app is told to start its password-reset policy.
    package static func forgotPassword() -> OAuthError {
        .b2cOnly(.accessDenied, b2cCode: "AADB2C90118", message: "The user has forgotten their password.",
                 mayRedirect: true, reason: "the user chose 'Forgot your password?' on the sign-in page")
    }

    /// Cancel on a B2C page (the wording real B2C sends for self-asserted pages; the table lists "User cancellation.").
    package static func userCancelled() -> OAuthError {
        .b2cOnly(.accessDenied, b2cCode: "AADB2C90091", message: "The user has cancelled entering self-asserted information.",
                 mayRedirect: true, reason: "the user pressed Cancel on a B2C page")
    }

    /// A code or refresh token redeemed at another policy's token endpoint.
    package static func grantForOtherPolicy(actual: String, expected: String) -> OAuthError {
        .b2cOnly(.invalidGrant, b2cCode: "AADB2C90088",
                 message: "The provided grant has not been issued for this endpoint. Actual Value : \(actual) and Expected Value : \(expected)",
                 reason: "the grant was issued by policy '\(expected)' but redeemed at policy '\(actual)'")
    }

    /// B2C's token endpoint speaks authorization_code and refresh_token (and password at ROPC policies) only here.
    package static func b2cUnsupportedGrantType(_ grantType: String) -> OAuthError {
        .b2cOnly(.unsupportedGrantType, b2cCode: "AADB2C90086", message: "The supplied grant_type [\(grantType)] is not supported.",
                 reason: "grant_type '\(grantType)' is not supported by this B2C policy (authorization_code and refresh_token are; password only at ROPC policies, whose name contains 'ropc')")
    }

    /// ROPC policy: an unknown user or a wrong password (one text for both, as B2C's table has it). The
    /// `access_denied` error value is [INF].
    package static func b2cInvalidCredentials(username: String, unknownUser: Bool) -> OAuthError {
        .b2cOnly(.accessDenied, b2cCode: "AADB2C90225", message: "The username or password provided in the request are invalid.",
                 reason: unknownUser ? "the B2C tenant has no local account '\(username)'" : "the password of '\(username)' is wrong")
    }

    /// ROPC policy: the client is not a public client. B2C's ROPC needs "Allow public client flows" (a public
    /// client); an app without it gets `{"error":"unauthorized_client","error_description":"AADB2C90224: Resource
    /// owner flow has not been enabled for the application.\r\nCorrelation ID: …"}` (a real response quoted in
    /// MicrosoftDocs/azure-docs#50330).
    package static func ropcNotEnabled(clientID: String) -> OAuthError {
        .b2cOnly(.unauthorizedClient, b2cCode: "AADB2C90224", message: "Resource owner flow has not been enabled for the application.",
                 reason: "B2C's ROPC user flow serves public clients only (type: public); '\(clientID)' is confidential")
    }

    /// The authorize endpoint of a ROPC policy: the flow is a token-endpoint POST only. The code is the table's
    /// AADB2C90226 ("only supported over HTTP POST") [INF].
    package static func ropcPolicyHasNoAuthorize(_ policy: String) -> OAuthError {
        .b2cOnly(.invalidRequest, b2cCode: "AADB2C90226", message: "The specified token exchange is only supported over HTTP POST.",
                 mayRedirect: true,
                 reason: "'\(policy)' is a ROPC policy: it has no sign-in pages; POST grant_type=password to its token endpoint")
    }

    /// A scope with no resource prefix that is not this app's client ID.
    package static func b2cScopeNeedsResource(_ scope: String) -> OAuthError {
        .b2cOnly(.invalidScope, b2cCode: "AADB2C90055",
                 message: "The scope '\(scope)' provided in request must specify a resource, such as 'https://example.com/calendar.read'.",
                 mayRedirect: true, reason: "B2C scopes name their API (api://…/read) or are the app's own client ID; '\(scope)' is neither")
    }
}

// B2C's words shared by several of Entra's errors.
extension B2CWording {
    static let wrongClientSecret = B2CWording(
        code: "AADB2C90081",
        message: "The specified client_secret does not match the expected value for this client. Please correct the client_secret and try again.")
    static let grantExpired = B2CWording(code: "AADB2C90080", message: "The provided grant has expired. Please re-authenticate and try again.")
    /// [INF] B2C documents no code for a replayed code; a spent or unknown grant reads as revoked.
    static let grantRevoked = B2CWording(code: "AADB2C90129", message: "The provided grant has been revoked. Please reauthenticate and try again.")
    static let grantForOtherClient = B2CWording(
        code: "AADB2C90279", message: "The provided client ID '\(.clientID)' does not match the client ID that issued the grant.")
    /// [INF] a malformed or unknown grant: B2C answers with its generic grant error.
    static let grantMalformed = B2CWording(
        code: "AADB2C90085", message: "The service has encountered an internal error. Please reauthenticate and try again.")
}

extension OAuthError {
    /// B2C's words for an error known only by its AADSTS number (an injected fault): those of the catalog's error
    /// with that number, where B2C has its own; nil where a B2C policy answers in Entra's words.
    package static func b2cWording(forAADSTS number: Int) -> B2CWording? {
        let error: OAuthError? = switch number {
        case 900144: .missingParameter("")
        case 50011: .unregisteredRedirectURI("", clientID: "")
        case 700016: .unknownClient("", tenant: "")
        case 70011: .invalidScope("")
        case 28000: .multipleResources()
        case 700054: .responseTypeNotEnabled("")
        case 70007: .unsupportedResponseMode("")
        case 70003: .unsupportedGrantType("")
        case 7000215: .invalidClientSecret(clientID: "")
        case 7000218: .missingClientCredential()
        case 700025: .publicClientSentCredential()
        case 9002325: .pkceRequired()
        case 501481: .codeVerifierMismatch()
        case 501491: .invalidCodeChallengeMethod("")
        case 70008: .codeExpired()
        case 700082: .expiredRefreshToken(issuedAt: "", inactiveSeconds: 0)
        case 54005: .codeAlreadyRedeemed()
        case 9002313: .invalidRefreshToken()
        case 50173: .refreshTokenUserGone()
        case 70000: .invalidAuthorizationCode()
        case 50058: .loginRequired()
        default: nil
        }
        return error?.b2c
    }
}
