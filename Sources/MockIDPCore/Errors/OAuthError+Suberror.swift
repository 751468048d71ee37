extension OAuthError {
    /// Entra's `suberror`: what a user can do about an `invalid_grant` that needs interaction. MSAL reads it to
    /// classify the failure
    /// (https://learn.microsoft.com/dotnet/api/microsoft.identity.client.uirequiredexceptionclassification,
    /// https://learn.microsoft.com/javascript/api/@azure/msal-node/interactionrequiredautherrorcodes). The raw
    /// value is the wire name; faults take theirs from this list.
    package enum Suberror: String, Sendable, Hashable, CaseIterable {
        /// Interactive sign-in can resolve it: multi-factor authentication required or to enrol in
        /// (AADSTS50076, 50079; docs/entra-behaviour.md, "AADSTS codes").
        case basicAction = "basic_action"
        /// The user must act outside the sign-in flow (register a device, for example). Only injected faults send it
        /// here.
        case additionalAction = "additional_action"
        /// Nothing the user can do; sign-in would only show why (AADSTS53003, blocked by Conditional Access).
        case messageOnly = "message_only"
        /// The user or an administrator must consent (AADSTS65001 at the token endpoint).
        case consentRequired = "consent_required"
        /// The user's password has expired (AADSTS50055).
        case userPasswordExpired = "user_password_expired"
        /// The refresh token can no longer be used (AADSTS700082, expired by inactivity).
        case badToken = "bad_token"
        /// The native authentication API: the app is not enabled for it (`invalid_client`).
        case nativeAuthAPIDisabled = "nativeauthapi_disabled"
        /// The native authentication API: the one-time passcode is wrong, expired or already used.
        case invalidOOBValue = "invalid_oob_value"
        /// The native authentication API: the password breaks the password policy (Microsoft Learn, "Native
        /// authentication API reference", the `password_*` suberrors).
        case passwordTooWeak = "password_too_weak"
        case passwordTooShort = "password_too_short"
        case passwordTooLong = "password_too_long"
        case passwordRecentlyUsed = "password_recently_used"
        case passwordBanned = "password_banned"
        case passwordIsInvalid = "password_is_invalid"
        /// The native authentication API: an attribute's value is not valid (with `invalid_attributes`).
        case attributeValidationFailed = "attribute_validation_failed"
        /// The native authentication API: the user must pass a second factor (with a `continuation_token`).
        case mfaRequired = "mfa_required"
        /// The native authentication API: the user must register a strong authentication method first.
        case registrationRequired = "registration_required"
    }
}
