/// A request to the authorize endpoint, as the HTTP layer decoded it (query for GET, form for POST).
package struct AuthorizationRequest: Sendable {
    /// The tenant segment of the path.
    package var tenant: String
    package var version: ProtocolVersion
    package var parameters: [(name: String, value: String)]
    /// The B2C policy named in the path or by `p`, and how.
    package var policy: String?
    package var policyForm: B2CPolicyForm

    package init(tenant: String, version: ProtocolVersion = .v2, parameters: [(name: String, value: String)],
                policy: String? = nil, policyForm: B2CPolicyForm = .path) {
        self.tenant = tenant
        self.policy = policy
        self.policyForm = policyForm
        self.version = version
        self.parameters = parameters
    }
}

/// How the authorization response travels back to the client (OAuth 2.0 Multiple Response Types, Form Post).
package enum ResponseMode: String, Sendable {
    case query
    case fragment
    case formPost = "form_post"
}

/// An authorization request that passed every check: what the sign-in step needs and what the response carries.
package struct ValidatedAuthorization: Sendable {
    package var tenant: Tenant?
    /// The tenant segment the client used (`common`, a GUID, a domain).
    package var tenantSegment: String
    package var client: Application
    /// The redirect URI exactly as the client sent it (responses go there).
    package var redirectURI: String
    /// `code`, `id_token`, `token`, in any combination Entra allows.
    package var responseTypes: Set<ResponseType>
    package var responseMode: ResponseMode
    package var scope: String
    package var state: String?
    package var nonce: String?
    package var prompt: Prompt?
    package var loginHint: String?
    package var domainHint: String?
    package var maxAge: Int?
    package var codeChallenge: String?
    package var codeChallengeMethod: String?
    package var includeClientInfo: Bool
    /// The endpoint's version: `/oauth2/authorize` (v1) issues v1 ID tokens.
    package var version: ProtocolVersion = .v2
    /// A v1 request's `resource`, exactly as sent: its code is for that resource (nil for v2).
    package var resource: String? = nil
    /// The `claims` parameter's own members (not `id_token`, `access_token` or `userinfo`): claims for a user made
    /// on the fly, whom `login_hint` names (nil: the parameter has none).
    package var signInClaims: ClaimSet? = nil
    /// The B2C tenant and policy, for a B2C request.
    package var b2c: B2CAuthority? = nil
}

/// What the authorize endpoint does with a request.
package enum AuthorizationDecision: Sendable {
    /// The client or redirect URI cannot be trusted: show Entra's error page, never redirect.
    case errorPage(OAuthError)
    /// A protocol error once client and redirect URI are verified: send it to the redirect URI.
    case redirectError(OAuthError, redirectURI: String, mode: ResponseMode, state: String?)
    /// Valid: sign the user in (or use the browser session), then call `authorize(_:user:…)`.
    case signIn(ValidatedAuthorization)
}
