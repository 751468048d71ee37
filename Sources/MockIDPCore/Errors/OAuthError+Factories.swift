// Entra's errors, one factory each; codes and texts from docs/entra-behaviour.md, "AADSTS codes", and
// the Entra error-code reference. Each `reason` says in plain words which check failed.
extension OAuthError {
    package static func missingParameter(_ name: String) -> OAuthError {
        let b2c = switch name {
        case "client_id": B2CWording(code: "AADB2C90008", message: "The request does not contain a client ID parameter.")
        case "scope": B2CWording(code: "AADB2C90010", message: "The request does not contain a scope parameter.")
        default: B2CWording(code: "AADB2C90083", message: "The request is missing required parameter: \(name).")
        }
        return OAuthError(code: .invalidRequest, aadsts: 900144,
                          message: "The request body must contain the following parameter: '\(name)'.", b2c: b2c,
                          reason: "the request has no '\(name)' parameter")
    }

    package static func duplicateParameter(_ name: String) -> OAuthError {
        OAuthError(code: .invalidRequest, aadsts: 9000411,
                   message: "The request is not properly formatted. The parameter '\(name)' is duplicated.",
                   reason: "the parameter '\(name)' appears more than once")
    }

    package static func malformedRequest(_ why: String) -> OAuthError {
        OAuthError(code: .invalidRequest, aadsts: 900143,
                   message: "The request body could not be read: \(why)", reason: "the request body is malformed: \(why)")
    }

    /// Entra: discovery answers `invalid_tenant`, the token endpoint `invalid_request`, both with 90002.
    package static func tenantNotFound(_ tenant: String, forDiscovery: Bool) -> OAuthError {
        OAuthError(code: forDiscovery ? .invalidTenant : .invalidRequest, aadsts: 90002,
                   message: "Tenant '\(tenant)' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud. Check with your subscription administrator, this may happen if there are no active subscriptions for the tenant.",
                   reason: "no configured tenant has the id or domain '\(tenant)'")
    }

    package static func noTenantInformation() -> OAuthError {
        OAuthError(code: .invalidRequest, aadsts: 50059,
                   message: "No tenant-identifying information found in either the request or implied by any provided credentials.",
                   reason: "the request went to /common or /organizations, which cannot name a tenant for this grant")
    }

    package static func tokenEndpointRequiresPOST(method: String) -> OAuthError {
        OAuthError(code: .invalidRequest, aadsts: 900561,
                   message: "The endpoint only accepts POST, OPTIONS requests. Received a \(method) request.",
                   reason: "the token endpoint was called with \(method) instead of POST")
    }

    package static func unsupportedGrantType(_ grantType: String) -> OAuthError {
        OAuthError(code: .unsupportedGrantType, aadsts: 70003,
                   message: "The app requested an unsupported grant type '\(grantType)'.",
                   b2c: B2CWording(code: "AADB2C90086", message: "The supplied grant_type [\(grantType)] is not supported."),
                   reason: "the grant type '\(grantType)' is not supported")
    }

    package static func unknownClient(_ clientID: String, tenant: String) -> OAuthError {
        OAuthError(code: .unauthorizedClient, aadsts: 700016,
                   message: "Application with identifier '\(clientID)' was not found in the directory '\(tenant)'. This can happen if the application has not been installed by the administrator of the tenant or consented to by any user in the tenant. You may have sent your authentication request to the wrong tenant.",
                   b2c: B2CWording(code: "AADB2C90018", message: "The client ID '\(clientID)' specified in the request is not registered in tenant '\(.tenant)'."),
                   reason: "no app with client id '\(clientID)' is registered in tenant '\(tenant)'")
    }

    package static func invalidClientSecret(clientID: String) -> OAuthError {
        OAuthError(code: .invalidClient, aadsts: 7000215,
                   message: "Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '\(clientID)'.",
                   b2c: .wrongClientSecret,
                   status: 401, reason: "the client secret does not match the secret configured for app '\(clientID)'")
    }

    package static func missingClientCredential() -> OAuthError {
        OAuthError(code: .invalidClient, aadsts: 7000218,
                   message: "The request body must contain the following parameter: 'client_assertion' or 'client_secret'.",
                   b2c: B2CWording(code: "AADB2C90079", message: "Clients must send a client_secret when redeeming a confidential grant."),
                   status: 401, reason: "a confidential client sent neither client_secret nor client_assertion")
    }

    package static func publicClientSentCredential() -> OAuthError {
        OAuthError(code: .invalidClient, aadsts: 700025,
                   message: "Client is public so neither 'client_assertion' nor 'client_secret' should be presented.",
                   b2c: B2CWording(code: "AADB2C90084", message: "Public clients should not send a client_secret when redeeming a publicly acquired grant."),
                   status: 401, reason: "a public client sent a client secret or assertion")
    }

    package static func invalidPassword() -> OAuthError {
        OAuthError(code: .invalidGrant, aadsts: 50126,
                   message: "Error validating credentials due to invalid username or password.",
                   reason: "the password does not match")
    }

    package static func unknownUser(_ username: String, tenant: String) -> OAuthError {
        OAuthError(code: .invalidGrant, aadsts: 50034,
                   message: "The user account {EmailHidden} does not exist in the \(tenant) directory. To sign into this application, the account must be added to the directory.",
                   reason: "no user '\(username)' exists in tenant '\(tenant)'")
    }

    package static func multiFactorRequired(resource: String) -> OAuthError {
        OAuthError(code: .invalidGrant, aadsts: 50076,
                   message: "Due to a configuration change made by your administrator, or because you moved to a new location, you must use multi-factor authentication to access '\(resource)'.",
                   suberror: .basicAction, claims: Fault.multiFactorChallenge,
                   reason: "the user requires multi-factor authentication (requireMfa) and the request's claims do not ask for MFA")
    }

    /// Entra: AADSTS90017-like [INF]: the `claims` parameter must be a JSON object of objects (OIDC Core §5.5).
    package static func invalidClaimsParameter() -> OAuthError {
        OAuthError(code: .invalidRequest, aadsts: 90017,
                   message: "The 'claims' parameter is not a valid JSON object.",
                   reason: "the claims parameter is not a JSON object whose members are objects of claim requests")
    }

    package static func invalidRefreshToken() -> OAuthError {
        OAuthError(code: .invalidGrant, aadsts: 9002313,
                   message: "Invalid request. Request is malformed or invalid.", b2c: .grantRevoked,
                   reason: "the refresh token is unknown or malformed")
    }

    package static func expiredRefreshToken(issuedAt: String, inactiveSeconds: Int) -> OAuthError {
        OAuthError(code: .invalidGrant, aadsts: 700082,
                   message: "The refresh token has expired due to inactivity. The token was issued on \(issuedAt) and was inactive for \(EntraTime.duration(inactiveSeconds)).",
                   b2c: .grantExpired, suberror: .badToken, reason: "the refresh token expired (tokens.refreshLifetime)")
    }

    package static func refreshTokenForOtherClient() -> OAuthError {
        OAuthError(code: .invalidGrant, aadsts: 70000,
                   message: "Provided grant is invalid or malformed.", b2c: .grantForOtherClient,
                   reason: "the refresh token was issued to another client")
    }

    package static func refreshTokenUserGone() -> OAuthError {
        OAuthError(code: .invalidGrant, aadsts: 50173,
                   message: "The provided grant has expired due to it being revoked, a fresh auth token is needed.",
                   b2c: B2CWording(code: "AADB2C90128", message: "The account associated with this grant no longer exists. Please reauthenticate and try again."),
                   reason: "the user the refresh token was issued for no longer exists or changed")
    }

    package static func invalidScope(_ scope: String) -> OAuthError {
        OAuthError(code: .invalidScope, aadsts: 70011,
                   message: "The provided value for the input parameter 'scope' is not valid. The scope \(scope) is not valid.",
                   b2c: B2CWording(code: "AADB2C90117", message: "The scope '\(scope)' provided in the request is not supported."),
                   reason: "the scope '\(scope)' is not valid here")
    }

    /// Entra answers a `scope` it cannot use with AADSTS70011; mockidp answers so a `scope` longer than a code keeps
    /// (`ScopeRequest.maximumLength`), naming its length instead of quoting it.
    package static func scopeTooLong(_ scope: String, limit: Int) -> OAuthError {
        let length = scope.utf8.count
        return OAuthError(code: .invalidScope, aadsts: 70011,
                          message: "The provided value for the input parameter 'scope' is not valid. The scope is \(length) bytes long; at most \(limit) are accepted.",
                          b2c: B2CWording(code: "AADB2C90117", message: "The scope provided in the request is \(length) bytes long; at most \(limit) are supported."),
                          reason: "the scope is \(length) bytes long, more than the \(limit) a code keeps")
    }

    package static func clientCredentialsNeedDefaultScope(_ scope: String) -> OAuthError {
        OAuthError(code: .invalidScope, aadsts: 1002012,
                   message: "The provided value for scope \(scope) is not valid. Client credential flows must have a scope value with /.default suffixed to the resource identifier (application ID URI).",
                   reason: "client credentials need one '<resource>/.default' scope, got '\(scope)'")
    }

    package static func multipleResources() -> OAuthError {
        OAuthError(code: .invalidScope, aadsts: 28000,
                   message: "Provided value for the input parameter scope is not valid because it contains more than one resource. Scope {scopes} is not valid.",
                   b2c: B2CWording(code: "AADB2C90146", message: "The scope provided in request specifies more than one resource for an access token, which is not supported."),
                   reason: "the scopes name more than one resource (API)")
    }

    package static func unknownResource(_ resource: String, tenant: String) -> OAuthError {
        OAuthError(code: .invalidResource, aadsts: 500011,
                   message: "The resource principal named \(resource) was not found in the tenant named \(tenant). This can happen if the application has not been installed by the administrator of the tenant or consented to by any user in the tenant. You might have sent your authentication request to the wrong tenant.",
                   reason: "no API with identifier '\(resource)' exists in tenant '\(tenant)'")
    }

    package static func unknownInstance() -> OAuthError {
        OAuthError(code: .invalidInstance, aadsts: 50049, message: "Unknown or invalid instance.",
                   reason: "the authorization_endpoint names a host this server does not serve")
    }

    package static func invalidAccessToken(_ why: String) -> OAuthError {
        OAuthError(code: .invalidToken, message: why, status: 401, reason: "the bearer token is not accepted: \(why)")
    }
}

// Authorization endpoint and code redemption
// (docs/entra-behaviour.md, "Authorize requests" and "PKCE and authorization codes").
extension OAuthError {
    package static func unregisteredRedirectURI(_ uri: String, clientID: String) -> OAuthError {
        OAuthError(code: .invalidRequest, aadsts: 50011,
                   message: "The redirect URI '\(uri)' specified in the request does not match the redirect URIs configured for the application '\(clientID)'. Make sure the redirect URI sent in the request matches one added to your application in the Azure portal.",
                   b2c: B2CWording(code: "AADB2C90006", message: "The redirect URI '\(uri)' provided in the request is not registered for the client ID '\(.clientID)'."),
                   reason: "the redirect URI '\(uri)' is not registered for app '\(clientID)'")
    }

    package static func responseTypeNotEnabled(_ responseType: String) -> OAuthError {
        OAuthError(code: .unsupportedResponseType, aadsts: 700054,
                   message: "response_type '\(responseType)' is not enabled for the application.",
                   b2c: B2CWording(code: "AADB2C90057", message: "The provided application is not configured to allow the OAuth Implicit flow."),
                   mayRedirect: true,
                   reason: "the app does not allow the implicit grant ('\(responseType)')")
    }

    package static func unsupportedResponseType(_ responseType: String) -> OAuthError {
        OAuthError(code: .unsupportedResponseType, aadsts: 700054,
                   message: "The response type '\(responseType)' is not supported.",
                   b2c: B2CWording(code: "AADB2C90013", message: "The requested response type '\(responseType)' provided in the request is not supported."),
                   mayRedirect: true, reason: "response_type '\(responseType)' is not one Entra accepts")
    }

    package static func unsupportedResponseMode(_ mode: String) -> OAuthError {
        OAuthError(code: .invalidRequest, aadsts: 70007,
                   message: "The application requested an unsupported response mode '\(mode)' when requesting a token.",
                   b2c: B2CWording(code: "AADB2C90014", message: "The requested response mode '\(mode)' provided in the request is not supported."),
                   mayRedirect: true, reason: "response_mode '\(mode)' is not allowed here")
    }

    /// Entra reports a bad value of a known parameter as invalid_request. (The exact AADSTS number varies
    /// by parameter and is not documented for all of them.)
    package static func invalidParameter(_ name: String, _ why: String) -> OAuthError {
        OAuthError(code: .invalidRequest, aadsts: 90023, message: "Invalid request. The parameter '\(name)' \(why).",
                   b2c: name == "prompt" ? B2CWording(code: "AADB2C90043", message: "The prompt included in the request contains invalid values. Expected 'none', 'login', 'consent' or 'select_account'.") : nil,
                   mayRedirect: true, reason: "the parameter '\(name)' \(why)")
    }

    package static func pkceRequired() -> OAuthError {
        OAuthError(code: .invalidRequest, aadsts: 9002325,
                   message: "Proof Key for Code Exchange is required for cross-origin authorization code redemption.",
                   b2c: B2CWording(code: "AADB2C99059", message: "The supplied request must present a code_challenge. Required for single-page apps using the authorization code flow."),
                   mayRedirect: true, reason: "this client must send a code_challenge (PKCE)")
    }

    package static func invalidCodeChallengeMethod(_ method: String) -> OAuthError {
        OAuthError(code: .invalidRequest, aadsts: 501491,
                   message: "Invalid code_challenge_method '\(method)'; use S256 or plain.",
                   b2c: B2CWording(code: "AADB2C90184", message: "The supplied code_challenge_method is not supported. Supported values are plain or S256"),
                   mayRedirect: true,
                   reason: "code_challenge_method '\(method)' is neither S256 nor plain")
    }

    package static func invalidAuthorizationCode() -> OAuthError {
        OAuthError(code: .invalidGrant, aadsts: 70000, message: "Provided grant is invalid or malformed.", b2c: .grantMalformed,
                   reason: "the authorization code is unknown or malformed")
    }

    package static func codeAlreadyRedeemed() -> OAuthError {
        OAuthError(code: .invalidGrant, aadsts: 54005,
                   message: "OAuth2 Authorization code was already redeemed, please retry with a new valid code or use an existing refresh token.",
                   b2c: .grantRevoked, reason: "the authorization code was already redeemed (codes are single-use)")
    }

    package static func codeExpired() -> OAuthError {
        OAuthError(code: .invalidGrant, aadsts: 70008,
                   message: "The provided authorization code or refresh token has expired due to inactivity. Send a new interactive authorization request for this user and resource.",
                   b2c: .grantExpired, reason: "the authorization code expired (tokens.codeLifetime)")
    }

    package static func codeIssuedToAnotherClient() -> OAuthError {
        OAuthError(code: .invalidGrant, aadsts: 70000, message: "Provided grant is invalid or malformed.", b2c: .grantForOtherClient,
                   reason: "the authorization code was issued to another client")
    }

    package static func codeRedirectURIMismatch() -> OAuthError {
        OAuthError(code: .invalidGrant, aadsts: 70000, message: "Provided grant is invalid or malformed.", b2c: .grantMalformed,
                   reason: "redirect_uri differs from the one the code was issued for")
    }

    package static func codeVerifierMismatch() -> OAuthError {
        OAuthError(code: .invalidGrant, aadsts: 501481,
                   message: "The Code_Verifier does not match the code_challenge supplied in the authorization request.",
                   b2c: B2CWording(code: "AADB2C90182", message: "The supplied code_verifier does not match associated code_challenge"),
                   reason: "the PKCE code_verifier does not match the code_challenge")
    }
}

// Browser sign-in (docs/entra-behaviour.md, "Sign-in decisions" and "Error responses").
extension OAuthError {
    package static func loginRequired() -> OAuthError {
        OAuthError(code: .loginRequired, aadsts: 50058,
                   message: "A silent sign-in request was sent but no user is signed in. The cookies used to represent the user's session were not sent in the request to Azure AD. This can happen if the user is using Internet Explorer or Edge, and the web app sending the silent sign-in request is in different IE security zone than the Azure AD endpoint (login.microsoftonline.com).",
                   // B2C answers interaction_required, naming the prompt 'None' (MSAL.js issues 349, 7115).
                   b2c: B2CWording(code: "AADB2C90077", message: "User does not have an existing session and request prompt parameter has a value of 'None'.",
                                   error: .interactionRequired),
                   mayRedirect: true, reason: "prompt=none but the browser has no session for a matching account")
    }

    /// Entra: `prompt=none` when the user has not consented to what the app asks for: `consent_required` with
    /// AADSTS65001 at the redirect URI (docs/entra-behaviour.md, "Sign-in decisions"; OpenID Connect Core §3.1.2.6).
    package static func consentRequiredSilently(client: Application, scopes: [String]) -> OAuthError {
        var error = OAuthError.consentRequired(
            client: client, scopes: scopes,
            reason: "prompt=none but the user has not consented to \(scopes.joined(separator: " ")) for this app (consentRequired)")
        error.code = .consentRequired
        error.suberror = nil
        error.mayRedirect = true
        return error
    }

    package static func consentDeclined() -> OAuthError {
        OAuthError(code: .accessDenied, aadsts: 65004, message: "User declined to consent to access the app.",
                   mayRedirect: true, reason: "the user pressed Cancel on the consent page")
    }

    /// Entra: AADSTS90015 QueryStringTooLong (Entra's error-code reference). Sent on the error page when the response
    /// to the redirect URI (mostly the `state` the client sent) would be longer than a redirect can carry.
    package static func queryStringTooLong(length: Int, limit: Int) -> OAuthError {
        OAuthError(code: .invalidRequest, aadsts: 90015, message: "Requested query string is too long.",
                   reason: "the redirect to the client would be \(length) bytes long, more than \(limit) (a very long state?)")
    }

    package static func formTokenMismatch() -> OAuthError {
        OAuthError(code: .invalidRequest, aadsts: 90013,
                   message: "Invalid input received from the user: the sign-in form expired or was not sent by this server's page.",
                   reason: "the sign-in form's token does not match its cookie (a cross-site post, or cookies are off)")
    }
}

// Device code flow (docs/entra-behaviour.md, "Grants" and "AADSTS codes").
extension OAuthError {
    package static func authorizationPending() -> OAuthError {
        OAuthError(code: .authorizationPending, aadsts: 70016,
                   message: "OAuth 2.0 device flow error. Authorization is pending. Continue polling.",
                   reason: "the user has not yet entered the code at /devicelogin")
    }

    package static func slowDown() -> OAuthError {
        OAuthError(code: .slowDown, aadsts: 70016, message: "OAuth 2.0 device flow error. Polling too fast; slow down.",
                   reason: "the client polled again before the interval passed")
    }

    package static func deviceCodeExpired() -> OAuthError {
        OAuthError(code: .expiredToken, aadsts: 70019, message: "Verification code expired.",
                   reason: "the device code expired before the user signed in")
    }

    package static func deviceAuthorizationDeclined() -> OAuthError {
        OAuthError(code: .authorizationDeclined, aadsts: 70000,
                   message: "The end user denied the authorization request.", b2c: .grantMalformed, reason: "the user declined at /devicelogin")
    }

    package static func badVerificationCode() -> OAuthError {
        OAuthError(code: .badVerificationCode, aadsts: 70000, message: "Provided grant is invalid or malformed.", b2c: .grantMalformed,
                   reason: "the device code is unknown or was already used")
    }
}
