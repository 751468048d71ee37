import MockIDPJOSE

extension IdentityProvider {
    /// `grant_type=authorization_code`: a code is redeemed once, by the client it was issued to, with the same
    /// redirect URI, before `tokens.codeLifetime` passes, and with the PKCE verifier when a challenge was sent
    /// (docs/entra-behaviour.md, "PKCE and authorization codes").
    func authorizationCode(_ parameters: TokenParameters, request: TokenRequest, authority: Authority,
                           directory: Directory, context: RequestScope) throws(OAuthError) -> TokenResponse {
        let code = try parameters.required("code")
        guard let record = authorizationCodes.record(code), record.policy == nil else { throw .invalidAuthorizationCode() }
        guard let tenant = directory.tenant(record.tenantID) else { throw .invalidAuthorizationCode() }
        if let specific = authority.specificTenant, specific.id != tenant.id { throw .invalidAuthorizationCode() }
        let (client, authentication) = try checkClient(parameters, request: request, tenant: tenant,
                                                       directory: directory, context: context, requireCredential: true)
        guard !record.redeemed else { throw .codeAlreadyRedeemed() }
        guard client.clientID == record.clientID else { throw .codeIssuedToAnotherClient() }
        guard clock.now() < record.expiresAt else { throw .codeExpired() }
        guard parameters["redirect_uri"] == record.redirectURI else { throw .codeRedirectURIMismatch() }
        try checkPKCE(verifier: parameters["code_verifier"], challenge: record.codeChallenge, method: record.codeChallengeMethod)
        guard let user = directory.user(record.username, in: tenant), user.objectID == record.userObjectID else {
            throw .refreshTokenUserGone()
        }
        let scopes = try userScopes(parameters, request: request, stored: record.scope, storedResource: record.resource,
                                    tenant: tenant, directory: directory, context: context)
        // Every check passed: the code is spent now, once (a failed attempt does not burn it).
        guard authorizationCodes.redeem(code) else { throw .codeAlreadyRedeemed() }
        var grant = Grant(client: client, clientAuthentication: authentication, scopes: scopes, applicationResource: nil,
                          applicationResourceIdentifier: nil, issuedAt: clock.now(), authenticationMethods: ["pwd"],
                          nonce: record.nonce, includeClientInfo: parameters["client_info"] == "1")
        if record.maxAgeRequested { grant.authTime = record.authTime }
        grant.signInTime = record.authTime
        return try userTokenResponse(grant, user: user, tenant: tenant, directory: directory, context: context, version: request.version)
    }

    /// RFC 7636 §4.6: S256 compares base64url(SHA-256(verifier)) with the challenge; plain compares them as is.
    /// A verifier for a code issued without a challenge is refused as a wrong one (RFC 9700 §2.1.1, PKCE
    /// downgrade): an attacker who strips the challenge from the authorization request must not get a code that
    /// redeems with any verifier.
    func checkPKCE(verifier: String?, challenge: String?, method: String?) throws(OAuthError) {
        guard let challenge else {
            if verifier != nil { throw .codeVerifierMismatch() }
            return
        }
        guard let verifier, (43...128).contains(verifier.utf8.count), verifier.utf8.allSatisfy(Self.isPKCECharacter) else {
            throw .codeVerifierMismatch()
        }
        let computed = method == "S256" ? Base64URL.encode(Digest.sha256(Array(verifier.utf8))) : verifier
        guard computed.isSameSecret(as: challenge) else { throw .codeVerifierMismatch() }
    }
}
