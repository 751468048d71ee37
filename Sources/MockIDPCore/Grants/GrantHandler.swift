import MockIDPJOSE

/// One grant type at the token endpoint: checks a request in Entra's (or B2C's) order and issues its tokens. Each
/// grant is a value in its own file; the token endpoint looks it up in `GrantTable` by dialect and grant type.
protocol GrantHandler: Sendable {
    /// The tokens `call` asks for, or the error Entra (or B2C) gives it.
    func issue(_ call: TokenCall) throws(OAuthError) -> TokenResponse
}

/// One token request as a grant sees it: the provider's stores and helpers, the request and its parameters, the
/// request's scope (its directory snapshot and dialect) and the tenant the path names.
struct TokenCall {
    let provider: IdentityProvider
    let parameters: TokenParameters
    let request: TokenRequest
    let scope: RequestScope
    /// The tenant segment of the path as a directory authority (a B2C policy's tenant in the B2C dialect).
    let authority: Authority

    /// The directory snapshot of the request.
    var directory: Directory { scope.directory }
}

/// The token endpoint's dispatch table: one grant value per grant type, per dialect.
enum GrantTable {
    /// Entra's grants (v1 and v2; `GrantType` tells them apart by name and version).
    static let entra: [GrantType: any GrantHandler] = [
        .clientCredentials: ClientCredentialsGrant(),
        .password: PasswordGrant(),
        .authorizationCode: AuthorizationCodeGrant(),
        .deviceCode: DeviceCodeGrant(),
        .refreshToken: RefreshTokenGrant(),
        .jwtBearer: OnBehalfOfGrant(),
    ]

    /// An External ID tenant's grants, by `grant_type`: Entra's, but for the resource owner password grant, which
    /// External ID does not offer (Microsoft Learn, "Supported features in external tenants": ROPC "No"); `password`
    /// there is the native authentication API's sign-in step, which carries a `continuation_token`, as are `oob`,
    /// `mfa_oob` and `continuation_token`.
    static let externalID: [String: any GrantHandler] = [
        "authorization_code": AuthorizationCodeGrant(),
        "client_credentials": ClientCredentialsGrant(),
        "refresh_token": RefreshTokenGrant(),
        "urn:ietf:params:oauth:grant-type:device_code": DeviceCodeGrant(),
        "urn:ietf:params:oauth:grant-type:jwt-bearer": OnBehalfOfGrant(),
        "password": ExternalIDPasswordGrant(),
        "oob": NativeAuthOOBGrant(),
        "mfa_oob": NativeAuthMFAGrant(),
        "continuation_token": NativeAuthContinuationTokenGrant(),
    ]

    /// A B2C user flow's grants, by `grant_type` (B2C's token endpoint has no other; `password` is ROPC policies' only).
    static let b2c: [String: any GrantHandler] = [
        "authorization_code": B2CAuthorizationCodeGrant(),
        "refresh_token": B2CRefreshTokenGrant(),
        "password": B2CPasswordGrant(),
    ]
}
