extension OAuthError {
    /// Every error code this server sends: the OAuth `error` of Entra's and B2C's answers, the managed-identity hosts'
    /// and the edge's `error`, and Microsoft Graph's `error.code`. The raw value is the wire name; no other file of
    /// `Sources/` spells one (Tests/clients/test_vocabulary.py keeps it so).
    ///
    /// Faults take their `error` from this list too, so an injected error is one a client can meet.
    package enum Code: String, Sendable, Hashable, CaseIterable {
        // OAuth 2.0 (RFC 6749 §4.1.2.1 and §5.2, https://www.rfc-editor.org/rfc/rfc6749#section-5.2), as Entra uses
        // them (https://learn.microsoft.com/entra/identity-platform/v2-oauth2-auth-code-flow, error responses).

        /// A parameter is missing, repeated, malformed or has a value Entra does not accept; also Entra's token
        /// endpoint for an unknown tenant, and the managed-identity hosts' refusals (IMDS's "Identity not found").
        case invalidRequest = "invalid_request"
        /// The client could not be authenticated: a wrong secret, a bad client assertion or federated credential.
        /// HTTP 401 (docs/entra-behaviour.md, "Error responses").
        case invalidClient = "invalid_client"
        /// The grant (code, refresh token, password, assertion) is unusable: expired, spent, for another client, or
        /// the user must do more (MFA, consent; with a `suberror`).
        case invalidGrant = "invalid_grant"
        /// The client may not do this: an application the tenant does not have (AADSTS700016), an on-behalf-of call
        /// with an app-only token, B2C's resource owner flow for a confidential client.
        case unauthorizedClient = "unauthorized_client"
        /// The `grant_type` is not one the endpoint speaks.
        case unsupportedGrantType = "unsupported_grant_type"
        /// A scope that is not valid here (unknown, more than one resource, no `/.default` for client credentials).
        case invalidScope = "invalid_scope"
        /// The user declined consent, or cancelled a B2C page or chose "Forgot your password?" (B2C's AADB2C90118,
        /// https://learn.microsoft.com/azure/active-directory-b2c/error-codes).
        case accessDenied = "access_denied"
        /// A `response_type` Entra does not support, or one the app is not enabled for (the implicit grant).
        case unsupportedResponseType = "unsupported_response_type"
        /// The server failed; mockidp sends it when a token or key set cannot be built.
        case serverError = "server_error"
        /// Entra is throttling or briefly unavailable (AADSTS50196, with `Retry-After`); sent by injected faults.
        case temporarilyUnavailable = "temporarily_unavailable"

        // OpenID Connect Core §3.1.2.6 (https://openid.net/specs/openid-connect-core-1_0.html#AuthError).

        /// B2C's answer to `prompt=none` without a session (where Entra answers `login_required`; AADB2C90077).
        case interactionRequired = "interaction_required"
        /// `prompt=none` and no signed-in user (AADSTS50058; docs/entra-behaviour.md, "Sign-in decisions").
        case loginRequired = "login_required"
        /// `prompt=none` and the user has not consented, at the redirect URI (AADSTS65001;
        /// docs/entra-behaviour.md, "Sign-in decisions"). At the token endpoint the same number is `invalid_grant`
        /// with this as `suberror`.
        case consentRequired = "consent_required"

        // The device authorization grant (RFC 8628 §3.5, https://www.rfc-editor.org/rfc/rfc8628#section-3.5), with
        // Entra's own two (https://learn.microsoft.com/entra/identity-platform/v2-oauth2-device-code).

        /// The user has not yet entered the code (AADSTS70016): keep polling.
        case authorizationPending = "authorization_pending"
        /// The client polls faster than the interval it was given.
        case slowDown = "slow_down"
        /// The device code expired before the user signed in (AADSTS70019).
        case expiredToken = "expired_token"
        /// Entra: the user declined at the device-login page.
        case authorizationDeclined = "authorization_declined"
        /// Entra: the device code is unknown or was already used.
        case badVerificationCode = "bad_verification_code"

        // Bearer tokens (RFC 6750 §3.1, https://www.rfc-editor.org/rfc/rfc6750#section-3.1).

        /// The bearer token at userinfo is missing, expired or not this server's. HTTP 401.
        case invalidToken = "invalid_token"

        // Entra's own.

        /// A resource (API) the tenant does not have (AADSTS500011), also as the managed-identity hosts pass it on.
        case invalidResource = "invalid_resource"
        /// Discovery and keys for a tenant that does not exist (AADSTS90002; docs/entra-behaviour.md, "AADSTS codes").
        case invalidTenant = "invalid_tenant"
        /// Instance discovery for an authority host Entra does not serve (AADSTS50049;
        /// docs/entra-behaviour.md, "Clouds and instance discovery").
        case invalidInstance = "invalid_instance"

        // External ID's native authentication API (Microsoft Learn, "Native authentication API reference").

        case userNotFound = "user_not_found"
        case userAlreadyExists = "user_already_exists"
        case attributesRequired = "attributes_required"
        case credentialRequired = "credential_required"
        case unsupportedChallengeType = "unsupported_challenge_type"

        // The managed-identity hosts' and mockidp's own edge and control API.

        /// App Service's token service without the right `X-IDENTITY-HEADER`, and a control call without the admin
        /// token. HTTP 401 (docs/azure-sdks.md, "Azure SDKs: managed identity"; docs/control-api.md, "Control API").
        case unauthorized = "unauthorized"
        /// A control call from a caller the control API does not serve: not loopback when the server has no admin
        /// token, or one a web page could have sent from another site. HTTP 403 (docs/control-api.md, "Control API").
        case forbidden = "forbidden"
        /// No endpoint at the path (HTTP 404): outside every route, a B2C document path not at a policy, the control
        /// API when it is off. Also held by a B2C path without a policy, which B2C answers with its web
        /// server's HTML 404 page, so the code is never sent.
        case notFound = "not_found"
        /// An endpoint Entra has that mockidp does not implement (the Kerberos proxy). HTTP 501.
        case notSupported = "not_supported"
        /// A control call names a tenant the configuration does not have. HTTP 404
        /// (docs/control-api.md, "Control API").
        case tenantNotFound = "tenant_not_found"

        // Microsoft Graph's `error.code` (https://learn.microsoft.com/graph/errors; docs/graph.md, "Microsoft Graph").

        /// Graph: no bearer token, or one that is not a valid, current Graph token. HTTP 401.
        case graphInvalidAuthenticationToken = "InvalidAuthenticationToken"
        /// Graph: the token holds none of the permissions the call needs. HTTP 403.
        case graphAuthorizationRequestDenied = "Authorization_RequestDenied"
        /// Graph (OData): a malformed query, body or path segment, or `/me` with an app-only token. HTTP 400.
        case graphBadRequest = "BadRequest"
        /// Graph's directory: a value it refuses (`$top` out of range, `$count` without `ConsistencyLevel`), or a
        /// method the path does not accept.
        case graphRequestBadRequest = "Request_BadRequest"
        /// Graph's directory: no object with this id. HTTP 404.
        case graphRequestResourceNotFound = "Request_ResourceNotFound"
        /// Graph's directory: a filter it does not evaluate. HTTP 400.
        case graphRequestUnsupportedQuery = "Request_UnsupportedQuery"
        /// Graph's directory: a `$skiptoken` it did not issue. HTTP 400.
        case graphDirectoryExpiredPageToken = "Directory_ExpiredPageToken"
        /// Graph: the user has no photo (of that size). HTTP 404.
        case graphImageNotFound = "ImageNotFound"
    }
}
