/// The errors of External ID tenants (docs/external-id.md, "What is served").
extension OAuthError {
    // Entra: Microsoft documents that external tenants have no resource owner password grant, not the error they
    // answer; this is Entra's answer to a grant type a tenant does not offer (docs/fidelity.md, "External ID").
    /// The resource owner password grant asked of an External ID tenant.
    package static func passwordGrantNotInExternalID() -> OAuthError {
        OAuthError(code: .unsupportedGrantType, aadsts: 70003,
                   message: "The app requested an unsupported grant type 'password'. External ID tenants do not support the resource owner password credentials grant; use the native authentication API.",
                   reason: "the resource owner password grant is not offered by External ID tenants (use the native authentication API, or a browser sign-in)")
    }
}

// The native authentication API's errors (Microsoft Learn, "Native authentication API reference"; MSAL for iOS and
// macOS, MSAL/src/native_auth/network/errors, for what the SDK reads). Where the reference gives no AADSTS number,
// the number is mockidp's choice (docs/fidelity.md, "External ID").
extension OAuthError {
    /// `challenge_type` without `redirect` (the reference's AADSTS901007).
    package static func challengeTypeWithoutRedirect() -> OAuthError {
        OAuthError(code: .invalidRequest, aadsts: 901007,
                   message: "The challenge_type list parameter does not include the 'redirect' type.",
                   reason: "the challenge_type list must include 'redirect'")
    }

    /// `challenge_type` naming a type the API does not know (it knows `oob`, `password` and `redirect`).
    package static func unknownChallengeType(_ type: String) -> OAuthError {
        OAuthError(code: .unsupportedChallengeType, aadsts: 901007,
                   message: "The challenge_type list parameter contains an unsupported challenge type '\(type)'.",
                   reason: "the challenge type '\(type)' is not one of oob, password, redirect")
    }

    /// A parameter that is empty or not valid (MSAL reads AADSTS90100 with "username parameter is empty or not
    /// valid" as an invalid user name).
    package static func nativeAuthInvalidParameter(_ name: String, _ why: String) -> OAuthError {
        OAuthError(code: .invalidRequest, aadsts: 90100, message: "\(name) parameter is empty or not valid",
                   reason: "the \(name) parameter is not valid: \(why)")
    }

    /// An app not enabled for the native authentication API, or a tenant that has none (401).
    package static func nativeAuthDisabled(clientID: String, why: String) -> OAuthError {
        OAuthError(code: .invalidClient, aadsts: 55201,
                   message: "The application '\(clientID)' is not enabled for native authentication.",
                   suberror: .nativeAuthAPIDisabled, status: 401, reason: why)
    }

    /// A tenant that does not let users sign themselves up (`signUp: false`).
    package static func signUpNotAllowed(tenant: String) -> OAuthError {
        OAuthError(code: .unauthorizedClient, aadsts: 55202,
                   message: "Sign-up is not enabled for this application.",
                   reason: "tenant '\(tenant)' has signUp: false")
    }

    /// No user signs in with this name.
    package static func nativeAuthUserNotFound(_ username: String) -> OAuthError {
        OAuthError(code: .userNotFound, aadsts: 50034, message: "The user account {EmailHidden} does not exist in the directory.",
                   reason: "no user '\(username)' exists in the tenant")
    }

    /// Sign-up for a name a user already has.
    package static func userAlreadyExists(_ username: String) -> OAuthError {
        OAuthError(code: .userAlreadyExists, aadsts: 1003037, message: "It looks like you may already have an account.",
                   reason: "a user '\(username)' already exists")
    }

    /// A continuation token that is unknown, spent, or of another flow, client, tenant or step.
    package static func invalidContinuationToken(_ why: String) -> OAuthError {
        OAuthError(code: .invalidGrant, aadsts: 55200, message: "The continuation_token is invalid.",
                   reason: "the continuation token is not valid here: \(why)")
    }

    /// A continuation token past its lifetime.
    package static func expiredContinuationToken() -> OAuthError {
        OAuthError(code: .expiredToken, aadsts: 552003, message: "The continuation_token is expired.",
                   reason: "the continuation token has expired")
    }

    /// A one-time passcode that is wrong, expired or already used.
    package static func invalidOOBValue() -> OAuthError {
        OAuthError(code: .invalidGrant, aadsts: 50181, message: "The one-time passcode is not valid.",
                   suberror: .invalidOOBValue, reason: "the one-time passcode is wrong, expired or already used")
    }

    /// A `grant_type` the step does not take.
    package static func nativeAuthGrantNotForStep(_ grantType: String) -> OAuthError {
        OAuthError(code: .invalidGrant, aadsts: 70003, message: "The grant_type '\(grantType)' is not valid for this request.",
                   reason: "the grant type '\(grantType)' is not what this step takes")
    }

    /// Sign-up needs a password before the account can be made.
    package static func credentialRequired(continuationToken: String) -> OAuthError {
        var e = OAuthError(code: .credentialRequired, aadsts: 55103, message: "Credential required.",
                           reason: "sign-up needs a password: call signup/v1.0/challenge, then continue with grant_type=password")
        e.nativeAuth = NativeAuthErrorDetails(continuationToken: continuationToken)
        return e
    }

    /// Sign-up needs `attributes` before the account can be made.
    package static func attributesRequired(_ attributes: [SignUpAttribute], continuationToken: String) -> OAuthError {
        var e = OAuthError(code: .attributesRequired, aadsts: 55106, message: "User attributes required.",
                           reason: "sign-up needs " + attributes.map(\.name).joined(separator: ", "))
        e.nativeAuth = NativeAuthErrorDetails(continuationToken: continuationToken, requiredAttributes: attributes)
        return e
    }

    /// Attribute values that are not valid (empty, too long, not text).
    package static func attributeValidationFailed(_ names: [String]) -> OAuthError {
        var e = OAuthError(code: .invalidGrant, aadsts: 55107, message: "User attribute validation failed.",
                           suberror: .attributeValidationFailed, reason: "invalid values for " + names.joined(separator: ", "))
        e.nativeAuth = NativeAuthErrorDetails(continuationToken: nil, invalidAttributes: names)
        return e
    }

    /// A password the policy refuses (Microsoft Learn, "Password policies and account restrictions in Microsoft
    /// Entra ID": 8 to 256 characters, three of four kinds of character).
    package static func passwordRefused(_ suberror: Suberror, _ why: String) -> OAuthError {
        OAuthError(code: .invalidGrant, aadsts: 399246, message: why, suberror: suberror, reason: why)
    }

    /// The user needs a second factor: the client said it can do MFA (`capabilities=mfa_required`).
    package static func nativeAuthMFARequired(continuationToken: String) -> OAuthError {
        var e = OAuthError(code: .invalidGrant, aadsts: 50076,
                           message: "Due to a configuration change made by your administrator, or because you moved to a new location, you must use multi-factor authentication.",
                           suberror: .mfaRequired, reason: "the user requires MFA (requireMfa): introspect, challenge, then grant_type=mfa_oob")
        e.nativeAuth = NativeAuthErrorDetails(continuationToken: continuationToken)
        return e
    }
}
