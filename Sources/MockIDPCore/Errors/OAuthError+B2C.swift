// Azure AD B2C's own errors. Codes and texts from B2C's error-code reference (azure-docs
// articles/active-directory-b2c/error-codes.md) and its troubleshooting page (AADB2C90118, AADB2C90091);
// each says where an [INF] choice was made.
extension OAuthError {
    /// B2C: a policy the tenant does not have. The documented text is the metadata error AADB2C90022; B2C
    /// answers the metadata URL of a missing policy with it (404), and this server uses it on every endpoint [INF].
    package static func policyNotFound(_ policy: String, tenant: String, status: Int = 400) -> OAuthError {
        OAuthError(error: "invalid_request", b2cCode: "AADB2C90022",
                   message: "Unable to return metadata for the policy '\(policy)' in tenant '\(tenant)'.", status: status,
                   reason: "the B2C tenant '\(tenant)' has no policy (user flow) named '\(policy)'", subject: policy)
    }

    /// B2C: a B2C tenant reached without a policy (no `/{policy}/` segment and no `?p=`). B2C has no tenant-wide
    /// endpoints ("each policy is a separate authorization server"), so this is the missing-policy error too.
    package static func policyRequired(tenant: String, status: Int = 400) -> OAuthError {
        OAuthError(error: "invalid_request", b2cCode: "AADB2C90022",
                   message: "Unable to return metadata for the policy '' in tenant '\(tenant)'.", status: status,
                   reason: "'\(tenant)' is a B2C tenant: name a policy in the path (/{tenant}/{policy}/…) or as ?p={policy}")
    }

    /// A policy path or `?p=` on a tenant that is not a B2C tenant.
    package static func notB2CTenant(_ tenant: String, policy: String, status: Int = 400) -> OAuthError {
        OAuthError(error: "invalid_request", b2cCode: "AADB2C90022",
                   message: "Unable to return metadata for the policy '\(policy)' in tenant '\(tenant)'.", status: status,
                   reason: "the tenant '\(tenant)' is not a B2C tenant (it has no b2c: section), so it has no policy '\(policy)'")
    }

    /// "Forgot your password?" on a sign-up/sign-in page: the app is told to start its password-reset policy.
    package static func forgotPassword() -> OAuthError {
        OAuthError(error: "access_denied", b2cCode: "AADB2C90118", message: "The user has forgotten their password.",
                   mayRedirect: true, reason: "the user chose 'Forgot your password?' on the sign-in page")
    }

    /// Cancel on a B2C page (the wording real B2C sends for self-asserted pages; the table lists "User cancellation.").
    package static func userCancelled() -> OAuthError {
        OAuthError(error: "access_denied", b2cCode: "AADB2C90091", message: "The user has cancelled entering self-asserted information.",
                   mayRedirect: true, reason: "the user pressed Cancel on a B2C page")
    }

    /// A code or refresh token redeemed at another policy's token endpoint.
    package static func grantForOtherPolicy(actual: String, expected: String) -> OAuthError {
        OAuthError(error: "invalid_grant", b2cCode: "AADB2C90088",
                   message: "The provided grant has not been issued for this endpoint. Actual Value : \(actual) and Expected Value : \(expected)",
                   reason: "the grant was issued by policy '\(expected)' but redeemed at policy '\(actual)'")
    }

    /// B2C's token endpoint speaks authorization_code and refresh_token (and password at ROPC policies) only here.
    package static func b2cUnsupportedGrantType(_ grantType: String) -> OAuthError {
        OAuthError(error: "unsupported_grant_type", b2cCode: "AADB2C90086", message: "The supplied grant_type [\(grantType)] is not supported.",
                   reason: "grant_type '\(grantType)' is not supported by this B2C policy (authorization_code and refresh_token are; password only at ROPC policies, whose name contains 'ropc')",
                   subject: grantType)
    }

    /// ROPC policy: an unknown user or a wrong password (one text for both, as B2C's table has it). The
    /// `access_denied` error value is [INF].
    package static func b2cInvalidCredentials(username: String, unknownUser: Bool) -> OAuthError {
        OAuthError(error: "access_denied", b2cCode: "AADB2C90225", message: "The username or password provided in the request are invalid.",
                   reason: unknownUser ? "the B2C tenant has no local account '\(username)'" : "the password of '\(username)' is wrong",
                   subject: username)
    }

    /// ROPC policy: the client is not a public client. B2C's ROPC needs "Allow public client flows" (a public
    /// client); mockidp answers a confidential app with the table's "Resource owner flow has not been enabled for
    /// the application." [INF].
    package static func ropcNotEnabled(clientID: String) -> OAuthError {
        OAuthError(error: "unauthorized_client", b2cCode: "AADB2C90224", message: "Resource owner flow has not been enabled for the application.",
                   reason: "B2C's ROPC user flow serves public clients only (type: public); '\(clientID)' is confidential",
                   subject: clientID)
    }

    /// The authorize endpoint of a ROPC policy: the flow is a token-endpoint POST only. The code is the table's
    /// AADB2C90226 ("only supported over HTTP POST") [INF].
    package static func ropcPolicyHasNoAuthorize(_ policy: String) -> OAuthError {
        OAuthError(error: "invalid_request", b2cCode: "AADB2C90226", message: "The specified token exchange is only supported over HTTP POST.",
                   mayRedirect: true,
                   reason: "'\(policy)' is a ROPC policy: it has no sign-in pages; POST grant_type=password to its token endpoint",
                   subject: policy)
    }

    /// A scope with no resource prefix that is not this app's client ID.
    package static func b2cScopeNeedsResource(_ scope: String) -> OAuthError {
        OAuthError(error: "invalid_scope", b2cCode: "AADB2C90055",
                   message: "The scope '\(scope)' provided in request must specify a resource, such as 'https://example.com/calendar.read'.",
                   mayRedirect: true, reason: "B2C scopes name their API (api://…/read) or are the app's own client ID; '\(scope)' is neither",
                   subject: scope)
    }

    /// The same error in B2C's words, where B2C has its own code; others stay as they are. `clientID` and
    /// `tenant` fill B2C's messages that name them.
    package func inB2CDialect(clientID: String?, tenant: String) -> OAuthError {
        guard b2cCode == nil, let aadsts else { return self }
        let client = clientID ?? ""
        let subject = self.subject ?? ""
        func b2c(_ code: String, _ message: String, error: String? = nil) -> OAuthError {
            var e = self
            e.aadsts = nil
            e.b2cCode = code
            e.message = message
            if let error { e.error = error }
            return e
        }
        switch aadsts {
        case 900144:
            switch subject {
            case "client_id": return b2c("AADB2C90008", "The request does not contain a client ID parameter.")
            case "scope": return b2c("AADB2C90010", "The request does not contain a scope parameter.")
            default: return b2c("AADB2C90083", "The request is missing required parameter: \(subject).")
            }
        case 50011:
            return b2c("AADB2C90006", "The redirect URI '\(subject)' provided in the request is not registered for the client ID '\(client)'.")
        case 700016:
            return b2c("AADB2C90018", "The client ID '\(subject)' specified in the request is not registered in tenant '\(tenant)'.")
        case 70011:
            return b2c("AADB2C90117", "The scope '\(subject)' provided in the request is not supported.")
        case 28000:
            return b2c("AADB2C90146", "The scope provided in request specifies more than one resource for an access token, which is not supported.")
        case 700054:
            if self.subject == nil { return b2c("AADB2C90057", "The provided application is not configured to allow the OAuth Implicit flow.") }
            return b2c("AADB2C90013", "The requested response type '\(subject)' provided in the request is not supported.")
        case 70007:
            return b2c("AADB2C90014", "The requested response mode '\(subject)' provided in the request is not supported.")
        case 70003:
            return b2c("AADB2C90086", "The supplied grant_type [\(subject)] is not supported.")
        case 90023 where subject == "prompt":
            return b2c("AADB2C90043", "The prompt included in the request contains invalid values. Expected 'none', 'login', 'consent' or 'select_account'.")
        case 7000215:
            return b2c("AADB2C90081", "The specified client_secret does not match the expected value for this client. Please correct the client_secret and try again.")
        case 7000218:
            return b2c("AADB2C90079", "Clients must send a client_secret when redeeming a confidential grant.")
        case 700025:
            return b2c("AADB2C90084", "Public clients should not send a client_secret when redeeming a publicly acquired grant.")
        case 9002325:
            return b2c("AADB2C99059", "The supplied request must present a code_challenge. Required for single-page apps using the authorization code flow.")
        case 501481:
            return b2c("AADB2C90182", "The supplied code_verifier does not match associated code_challenge")
        case 501491:
            return b2c("AADB2C90184", "The supplied code_challenge_method is not supported. Supported values are plain or S256")
        case 70008, 700082:
            return b2c("AADB2C90080", "The provided grant has expired. Please re-authenticate and try again.")
        case 54005, 9002313:
            // [INF] B2C documents no code for a replayed code; a spent or unknown grant reads as revoked.
            return b2c("AADB2C90129", "The provided grant has been revoked. Please reauthenticate and try again.")
        case 50173:
            return b2c("AADB2C90128", "The account associated with this grant no longer exists. Please reauthenticate and try again.")
        case 70000:
            if self.subject == "otherClient" {
                return b2c("AADB2C90279", "The provided client ID '\(client)' does not match the client ID that issued the grant.")
            }
            // [INF] a malformed or unknown grant: B2C answers with its generic grant error.
            return b2c("AADB2C90085", "The service has encountered an internal error. Please reauthenticate and try again.")
        case 50058:
            return b2c("AADB2C90077", "User does not have an existing session and request prompt parameter has a value of 'none'.")
        default:
            return self
        }
    }
}
