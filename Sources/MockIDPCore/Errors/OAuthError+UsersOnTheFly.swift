/// mockidp's own refusals for users made on the fly (`signIn: {anyUser: true}`), in the shape of Entra's
/// `invalid_request` AADSTS90023 for a bad parameter: Entra has no such users, so it has no wording of its own.
extension OAuthError {
    /// Claims brought by a sign-in (the page's field, or the `claims` parameter's own members) cannot be used.
    package static func invalidSignInClaims(_ why: String) -> OAuthError {
        invalidParameter("claims", "(claims for a user made on the fly) \(why)")
    }

    /// A configured user signed in bringing claims: the configuration decides a configured user's claims.
    package static func signInClaimsForListedUser(_ username: String) -> OAuthError {
        invalidParameter("claims", "brings claims only for users made on the fly; '\(username)' is configured, and the configuration sets its claims")
    }
}
