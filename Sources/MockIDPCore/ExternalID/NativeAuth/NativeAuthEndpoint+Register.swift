import MockIDPJOSE

/// Just-in-time registration of a strong authentication method (`/register/v1.0/{introspect,challenge,continue}`).
/// Every user here already has one (email one-time passcodes to their address), so no flow reaches a step these
/// take: they check the request as the reference does and refuse any continuation token with `invalid_grant`
/// (docs/fidelity.md, "External ID").
extension NativeAuthEndpoint {
    func register(_ call: NativeAuthCall, _ request: Call) throws(OAuthError) -> JSONValue {
        switch call {
        case .registerChallenge:
            _ = try request.parameters.required("challenge_type")
            _ = try request.parameters.required("challenge_target")
        case .registerContinue:
            let grantType = try request.parameters.required("grant_type")
            guard grantType == "oob" else { throw .nativeAuthGrantNotForStep(grantType) }
        default:
            break
        }
        _ = try request.flow(self, [.signIn, .signUp, .resetPassword]) { _ in false }
        return Self.redirect
    }
}
