/// `grant_type=oob` at an External ID tenant: the native authentication API's sign-in with a mailed one-time
/// passcode (Microsoft Learn, "Native authentication API reference", sign-in's token request).
struct NativeAuthOOBGrant: GrantHandler {
    func issue(_ call: TokenCall) throws(OAuthError) -> TokenResponse {
        try call.provider.nativeAuth.codeGrant(call, secondFactor: false)
    }
}
