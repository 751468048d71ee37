import MockIDPJOSE

/// B2C's tokens (docs/entra-behaviour.md, "B2C tokens"): `ver` 1.0 on the v2.0 endpoint, issuer with a trailing slash,
/// `sub` = object ID, `emails` an array, the policy in `tfp` (or `acr`), `newUser` on sign-up, no `x5t` in the header.
extension TokenFactory {
    private func b2cClaims(_ grant: B2CGrant, user: User, audience: String) -> B2CTokenClaims {
        let (given, family) = Self.splitName(user.name)
        let policy = grant.authority.policy.name
        let isTFP = grant.authority.policyClaim == .tfp
        return B2CTokenClaims(
            expires: grant.issuedAt + lifetime, notBefore: grant.issuedAt,
            issuer: DiscoveryDocuments.b2cIssuer(baseURL: baseURL, tenantID: grant.authority.tenant.id),
            subject: user.objectID, audience: audience, nonce: grant.nonce, issuedAt: grant.issuedAt,
            authTime: grant.authTime, objectID: user.objectID, name: user.name, givenName: given, familyName: family,
            emails: Self.emails(of: user), newUser: grant.newUser ? true : nil,
            trustFrameworkPolicy: isTFP ? policy : nil, policyAsACR: isTFP ? nil : policy,
            // B2C: user flows send no `tid`: B2C's claims reference lists none, Microsoft Learn's user-flow tokens
            // ("Request an access token") have none, nor do decoded user-flow tokens quoted in public code, and
            // MSAL.js builds B2C accounts knowing it ("tid … not present in B2C ID Tokens",
            // AzureAD/microsoft-authentication-library-for-js#6536). Custom policies send it: the starter pack's
            // relying party outputs `tenantId` as `tid` from {Policy:TenantObjectId}
            // (Azure-Samples/active-directory-b2c-custom-policy-starterpack, SignUpOrSignin.xml).
            tenantID: grant.authority.policy.isCustomPolicy ? grant.authority.tenant.id : nil)
    }

    /// B2C local accounts sign in with their e-mail address: `emails` holds the configured e-mail, else the
    /// username when it is one.
    static func emails(of user: User) -> [String]? {
        if let email = user.email { return [email] }
        return user.username.contains("@") ? [user.username] : nil
    }

    /// The ID token of a B2C grant; `hashes` adds `c_hash` / `at_hash` for hybrid flows.
    func b2cIDToken(_ grant: B2CGrant, user: User, hashes: TokenHashes = TokenHashes()) throws(OAuthError) -> String {
        var claims = b2cClaims(grant, user: user, audience: grant.client.clientID)
        claims.codeHash = hashes.code
        claims.accessTokenHash = hashes.accessToken
        // The user's claims can make them act as a social account (e.g. `idp: google.com`).
        return try sign(claims, version: .v2, kind: .id, overriding: overrides(user: user))
    }

    /// The access token of a B2C grant for its audience app: `scp` for API scopes, `azp` the client.
    func b2cAccessToken(_ grant: B2CGrant, user: User, audience: Application) throws(OAuthError) -> String {
        var claims = b2cClaims(grant, user: user, audience: audience.clientID)
        if !grant.scopes.apiScopes.isEmpty { claims.scope = grant.scopes.apiScopes.joined(separator: " ") }
        claims.authorizedParty = grant.client.clientID
        return try sign(claims, version: .v2, kind: .access, overriding: overrides(user: user))
    }

    /// B2C's `profile_info`: base64url of `{"ver":"1.0","tid":…,"sub":null,"name":…,"preferred_username":null,"idp":…}`,
    /// `idp` `LocalAccount` for local accounts (the refresh response of Microsoft Learn's "ROPC flow with custom
    /// policies", decoded; its user-flow articles show the same prefix).
    static func b2cProfileInfo(user: User, tenant: Tenant) -> String {
        let info: JSONValue = [
            "ver": "1.0", "tid": .string(tenant.id), "sub": .null, "name": user.name.map { .string($0) } ?? .null,
            "preferred_username": .null, "idp": .string(user.claims["idp"]?.stringValue ?? "LocalAccount"),
        ]
        return Base64URL.encode(info.serialized())
    }

    /// B2C's `client_info`: `uid` is `{oid}-{policy in lower case}` (docs/entra-behaviour.md, "client_info").
    static func b2cClientInfo(user: User, authority: B2CAuthority) -> String {
        let info: JSONValue = ["uid": .string("\(user.objectID)-\(authority.policy.pathName)"), "utid": .string(authority.tenant.id)]
        return Base64URL.encode(info.serialized())
    }
}
