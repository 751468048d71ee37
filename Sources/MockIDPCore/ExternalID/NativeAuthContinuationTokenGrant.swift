/// `grant_type=continuation_token` at an External ID tenant: signed in after the native authentication API's
/// sign-up or password reset (Microsoft Learn, "Native authentication API reference", "Automatically sign in after
/// sign-up").
struct NativeAuthContinuationTokenGrant: GrantHandler {
    func issue(_ call: TokenCall) throws(OAuthError) -> TokenResponse {
        try call.provider.nativeAuth.continuationTokenGrant(call)
    }
}
