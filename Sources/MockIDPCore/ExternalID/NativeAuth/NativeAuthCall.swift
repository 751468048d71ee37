/// The native authentication API's endpoints besides the token endpoint (Microsoft Learn, "Native authentication API
/// reference"; MSAL for iOS and macOS, `MSALNativeAuthEndpoint`). Their paths are `EndpointTable`'s.
public enum NativeAuthCall: String, Sendable, CaseIterable {
    case signInInitiate, signInChallenge, signInIntrospect
    case signUpStart, signUpChallenge, signUpContinue
    case resetPasswordStart, resetPasswordChallenge, resetPasswordContinue, resetPasswordSubmit, resetPasswordPollCompletion
    case registerIntrospect, registerChallenge, registerContinue

    /// The endpoint (and so the path) of the call.
    package var endpoint: Endpoint {
        switch self {
        case .signInInitiate: .nativeSignInInitiate
        case .signInChallenge: .nativeSignInChallenge
        case .signInIntrospect: .nativeSignInIntrospect
        case .signUpStart: .nativeSignUpStart
        case .signUpChallenge: .nativeSignUpChallenge
        case .signUpContinue: .nativeSignUpContinue
        case .resetPasswordStart: .nativeResetPasswordStart
        case .resetPasswordChallenge: .nativeResetPasswordChallenge
        case .resetPasswordContinue: .nativeResetPasswordContinue
        case .resetPasswordSubmit: .nativeResetPasswordSubmit
        case .resetPasswordPollCompletion: .nativeResetPasswordPollCompletion
        case .registerIntrospect: .nativeRegisterIntrospect
        case .registerChallenge: .nativeRegisterChallenge
        case .registerContinue: .nativeRegisterContinue
        }
    }
}
