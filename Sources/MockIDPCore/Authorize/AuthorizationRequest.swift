/// A request to the authorize endpoint, as the HTTP layer decoded it (query for GET, form for POST).
public struct AuthorizationRequest: Sendable {
    /// The tenant segment of the path.
    public var tenant: String
    public var version: ProtocolVersion
    public var parameters: [(name: String, value: String)]
    /// The B2C policy named in the path or by `p`, and how.
    public var policy: String?
    public var policyForm: B2CPolicyForm

    public init(tenant: String, version: ProtocolVersion = .v2, parameters: [(name: String, value: String)],
                policy: String? = nil, policyForm: B2CPolicyForm = .path) {
        self.tenant = tenant
        self.policy = policy
        self.policyForm = policyForm
        self.version = version
        self.parameters = parameters
    }
}

/// How the authorization response travels back to the client (OAuth 2.0 Multiple Response Types, Form Post).
public enum ResponseMode: String, Sendable {
    case query
    case fragment
    case formPost = "form_post"
}

/// An authorization request that passed every check: what the sign-in step needs and what the response carries.
public struct ValidatedAuthorization: Sendable {
    public var tenant: Tenant?
    /// The tenant segment the client used (`common`, a GUID, a domain).
    public var tenantSegment: String
    public var client: Application
    /// The redirect URI exactly as the client sent it (responses go there).
    public var redirectURI: String
    /// `code`, `id_token`, `token`, in any combination Entra allows.
    public var responseTypes: Set<ResponseType>
    public var responseMode: ResponseMode
    public var scope: String
    public var state: String?
    public var nonce: String?
    public var prompt: Prompt?
    public var loginHint: String?
    public var domainHint: String?
    public var maxAge: Int?
    public var codeChallenge: String?
    public var codeChallengeMethod: String?
    public var includeClientInfo: Bool
    /// The endpoint's version: `/oauth2/authorize` (v1) issues v1 ID tokens.
    public var version: ProtocolVersion = .v2
    /// The B2C tenant and policy, for a B2C request.
    public var b2c: B2CAuthority? = nil
}

/// What the authorize endpoint does with a request.
public enum AuthorizationDecision: Sendable {
    /// The client or redirect URI cannot be trusted: show Entra's error page, never redirect.
    case errorPage(OAuthError)
    /// A protocol error once client and redirect URI are verified: send it to the redirect URI.
    case redirectError(OAuthError, redirectURI: String, mode: ResponseMode, state: String?)
    /// Valid: sign the user in (or use the browser session), then call `authorize(_:user:…)`.
    case signIn(ValidatedAuthorization)
}
