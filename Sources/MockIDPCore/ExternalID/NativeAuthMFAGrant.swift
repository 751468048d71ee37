/// `grant_type=mfa_oob` at an External ID tenant: the native authentication API's second factor, a mailed one-time
/// passcode (Microsoft Learn, "Native authentication API reference", MFA; MSAL for iOS and macOS,
/// `MSALNativeAuthGrantType.mfaOOB`).
struct NativeAuthMFAGrant: GrantHandler {
    func issue(_ call: TokenCall) throws(OAuthError) -> TokenResponse {
        try call.provider.nativeAuth.codeGrant(call, secondFactor: true)
    }
}
