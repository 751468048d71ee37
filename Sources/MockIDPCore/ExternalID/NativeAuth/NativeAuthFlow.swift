/// One native-authentication flow at one step: what a continuation token stands for (Microsoft Learn, "Native
/// authentication API reference", "Continuation token"). Kept by `NativeAuthFlows` under the token's handle; the
/// client only ever sees the handle.
struct NativeAuthFlow: Sendable {
    /// Which of the API's flows this is: a token of one flow is refused by the others' endpoints.
    enum Kind: String, Sendable {
        case signIn, signUp, resetPassword
    }

    /// Where the flow stands: which request may present the token next.
    enum Stage: Sendable, Equatable {
        // Sign-in.
        /// After `initiate`: `challenge` picks the method.
        case initiated
        /// After `challenge` chose the password: the token endpoint with `grant_type=password`.
        case passwordRequested
        /// A code was mailed (sign-in with `signIn: otp`, sign-up, password reset): the step that takes it, or
        /// `challenge` again to resend.
        case codeSent
        /// After `mfa_required`: `introspect`, or `challenge` with the method.
        case mfaRequired
        /// After `introspect`: `challenge` with the method.
        case mfaIntrospected
        /// The second factor's code was mailed: the token endpoint with `grant_type=mfa_oob`, or `challenge` to resend.
        case mfaCodeSent
        // Sign-up and password reset.
        /// After `start`: `challenge`.
        case started
        /// Sign-up: `credential_required` was answered; `challenge` asks for the password.
        case credentialRequired
        /// Sign-up: `attributes_required` was answered; `continue` with `grant_type=attributes`.
        case attributesRequired
        /// Password reset: the code was right; `submit` takes the new password.
        case codeVerified
        /// Password reset: the new password was submitted; `poll_completion` reports the reset, `polls` times so far.
        case submitted(polls: Int)
        /// Done (a new user, a reset password): the token endpoint with `grant_type=continuation_token`.
        case completed
    }

    var kind: Kind
    var stage: Stage
    /// The client the flow was started by (lower-case).
    var clientID: String
    /// The tenant GUID.
    var tenantID: String
    /// The user name the flow is for, as the client sent it (an email address).
    var username: String
    /// The `challenge_type` list of the request that started the flow.
    var challengeTypes: Set<String>
    /// The `capabilities` of the request that started the flow (`mfa_required`, `registration_required`).
    var capabilities: Set<String>
    /// The one-time passcode mailed last, and when it stops being valid; nil once used.
    var code: (value: String, expiresAt: Int)?
    /// Sign-up: the password chosen so far.
    var password: String?
    /// Sign-up: the attribute values given so far, by name.
    var attributes: [String: String] = [:]
    /// Sign-up: whether the email address was proven with a code.
    var emailVerified = false
    /// The object ID of the user the flow signs in (sign-in, and sign-up and reset once done).
    var userObjectID: String?
    /// When the token standing for this step stops being valid (provider clock).
    var expiresAt: Int

}

extension NativeAuthFlow: Expiring {
    var keptBytes: Int {
        username.utf8.count + (password?.utf8.count ?? 0) + attributes.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
            + challengeTypes.reduce(0) { $0 + $1.utf8.count } + capabilities.reduce(0) { $0 + $1.utf8.count }
    }

    static var keptBytesCapacity: Int { 64 << 20 }
}
