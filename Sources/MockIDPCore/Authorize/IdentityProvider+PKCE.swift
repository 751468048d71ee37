extension IdentityProvider {
    /// The refusal of a PKCE downgrade (RFC 9700 §2.1.1): a code issued without `code_challenge` redeemed with a
    /// `code_verifier` is refused as a wrong verifier is (AADSTS501481), since an attacker who strips the challenge
    /// from the authorization request must not get a code that redeems with any verifier. Nil when the request is not
    /// such a redemption (then the grant's own checks run, in their order). The code is not spent.
    ///
    /// The route asks this before the grant runs: the grant's own PKCE step (`checkPKCE`) is the natural home for it.
    package func pkceDowngradeRefusal(_ request: TokenRequest) -> OAuthError? {
        func value(_ name: String) -> String? { request.parameters.first { $0.name == name }?.value }
        guard value("grant_type") == "authorization_code", value("code_verifier") != nil, let code = value("code"),
              let record = authorizationCodes.withLock({ $0[code] }), !record.redeemed, record.codeChallenge == nil,
              clock.now() < record.expiresAt,
              (value("client_id") ?? request.basicCredentials?.clientID) == record.clientID else { return nil }
        return .codeVerifierMismatch()
    }
}
