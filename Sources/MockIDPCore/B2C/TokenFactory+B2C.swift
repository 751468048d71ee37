import MockIDPJOSE

/// B2C's tokens (reference/entra-protocol.md §5.4): `ver` 1.0 on the v2.0 endpoint, issuer with a trailing slash,
/// `sub` = object ID, `emails` an array, the policy in `tfp` (or `acr`), `newUser` on sign-up, no `x5t` in the header.
extension TokenFactory {
    private func b2cCommon(_ grant: B2CGrant, user: User, audience: String) -> JSONObject {
        var c = JSONObject()
        c["exp"] = .int(grant.issuedAt + lifetime)
        c["nbf"] = .int(grant.issuedAt)
        c["ver"] = "1.0"
        c["iss"] = .string(IdentityProvider.b2cIssuer(baseURL: baseURL, tenantID: grant.authority.tenant.id))
        c["sub"] = .string(user.objectID)
        c["aud"] = .string(audience)
        if let nonce = grant.nonce { c["nonce"] = .string(nonce) }
        c["iat"] = .int(grant.issuedAt)
        c["auth_time"] = .int(grant.authTime)
        c["oid"] = .string(user.objectID)
        if let name = user.name { c["name"] = .string(name) }
        let (given, family) = Self.splitName(user.name)
        if let given { c["given_name"] = .string(given) }
        if let family { c["family_name"] = .string(family) }
        if let emails = Self.emails(of: user) { c["emails"] = .array(emails.map { .string($0) }) }
        if grant.newUser { c["newUser"] = true }
        c[grant.authority.policyClaim.rawValue] = .string(grant.authority.policy.name)
        return c
    }

    /// B2C local accounts sign in with their e-mail address: `emails` holds the configured e-mail, else the
    /// username when it is one.
    static func emails(of user: User) -> [String]? {
        if let email = user.email { return [email] }
        return user.username.contains("@") ? [user.username] : nil
    }

    /// The ID token of a B2C grant; `extra` adds `c_hash` / `at_hash` for hybrid flows.
    func b2cIDToken(_ grant: B2CGrant, user: User, extra: JSONObject = [:]) throws(OAuthError) -> String {
        var c = b2cCommon(grant, user: user, audience: grant.client.clientID)
        c.merge(extra)
        c["tid"] = .string(grant.authority.tenant.id)
        c.merge(user.claims)   // e.g. `idp: google.com` to act as a social account
        c.merge(extraClaims)
        return try sign(c, version: 2)
    }

    /// The access token of a B2C grant for its audience app: `scp` for API scopes, `azp` the client.
    func b2cAccessToken(_ grant: B2CGrant, user: User, audience: Application) throws(OAuthError) -> String {
        var c = b2cCommon(grant, user: user, audience: audience.clientID)
        if !grant.scopes.apiScopes.isEmpty { c["scp"] = .string(grant.scopes.apiScopes.joined(separator: " ")) }
        c["azp"] = .string(grant.client.clientID)
        c["tid"] = .string(grant.authority.tenant.id)
        c.merge(user.claims)
        c.merge(extraClaims)
        return try sign(c, version: 2)
    }

    /// B2C's `client_info`: `uid` is `{oid}-{policy in lower case}` (§3.6).
    static func b2cClientInfo(user: User, authority: B2CAuthority) -> String {
        let info: JSONValue = ["uid": .string("\(user.objectID)-\(authority.policy.pathName)"), "utid": .string(authority.tenant.id)]
        return Base64URL.encode(info.serialized())
    }
}
