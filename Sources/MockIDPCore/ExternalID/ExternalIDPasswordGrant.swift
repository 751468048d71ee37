/// `grant_type=password` at an External ID tenant. With a `continuation_token` it is the native authentication
/// API's sign-in step (Microsoft Learn, "Native authentication API reference", sign-in's token request); without
/// one it is the resource owner password grant, which External ID refuses (Microsoft Learn, "Supported features in
/// external tenants": resource owner password credentials, "No").
struct ExternalIDPasswordGrant: GrantHandler {
    func issue(_ call: TokenCall) throws(OAuthError) -> TokenResponse {
        guard let token = call.parameters["continuation_token"] else { throw .passwordGrantNotInExternalID() }
        return try call.provider.nativeAuth.passwordGrant(call, continuationToken: token)
    }
}
