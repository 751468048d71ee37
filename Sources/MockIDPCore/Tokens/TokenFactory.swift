import MockIDPJOSE

/// Builds and signs ID and access tokens with Entra's claims (reference/entra-protocol.md §5).
struct TokenFactory {
    let key: SigningKey
    let cloud: Cloud
    /// `scheme://host[:port]` the request came to (B2C issuers name it).
    let baseURL: String
    /// `scheme://host` of Entra's v2 issuers (`RequestContext.issuerBaseURL`).
    let issuerBaseURL: String
    let lifetime: Int
    let random: RandomSource
    /// For guests' home accounts.
    let directory: Directory
    /// The request's `claims` parameter: MFA and authentication contexts it asks for show in `amr` and `acrs`.
    var claimsRequest: ClaimsRequest?
    /// Claims from the control API, merged last.
    var extraClaims = JSONObject()

    // MARK: issuers

    func v2Issuer(tenantID: String) -> String { "\(issuerBaseURL)/\(tenantID)/v2.0" }
    func v1Issuer(tenantID: String) -> String { "https://\(cloud.v1IssuerHost)/\(tenantID)/" }

    // MARK: signing

    /// Entra's header: `typ`, `alg`, `kid`; v1 tokens carry `x5t` too.
    func sign(_ claims: JSONObject, version: Int) throws(OAuthError) -> String {
        var header: JSONObject = ["typ": "JWT", "alg": "RS256"]
        if version == 1 { header["x5t"] = .string(key.keyID) }
        header["kid"] = .string(key.keyID)
        do {
            return try JSONWebSignature.sign(header: header, payload: claims, key: key.privateKey, algorithm: .rs256)
        } catch {
            throw OAuthError(error: "server_error", message: "The token could not be signed.", status: 500,
                             reason: "signing failed: \(error)")
        }
    }

    // MARK: shared claims

    private func opaque(_ n: Int) -> String { Base64URL.encode(random.bytes(n)) }

    /// `uti`: a 22-character token identifier.
    func tokenIdentifier() -> String { opaque(16) }

    /// Entra: `sub` is pairwise, the same user has a different `sub` in each app; 43 base64url characters.
    static func pairwiseSubject(objectID: String, appID: String) -> String {
        Base64URL.encode(Digest.sha256(Array("sub:\(objectID):\(appID.lowercased())".utf8)))
    }

    /// The object ID of an app's service principal in a tenant (stable, derived).
    static func servicePrincipalID(appID: String, tenantID: String) -> String {
        GUID.derived(from: "sp:\(tenantID):\(appID.lowercased())")
    }

    /// The claims every token starts with, in Entra's order: `aud`, `iss`, `iat`, `nbf`, `exp`.
    private func header(audience: String, tenantID: String, version: Int, issuedAt: Int) -> JSONObject {
        var c = JSONObject()
        c["aud"] = .string(audience)
        c["iss"] = .string(version == 2 ? v2Issuer(tenantID: tenantID) : v1Issuer(tenantID: tenantID))
        c["iat"] = .int(issuedAt)
        c["nbf"] = .int(issuedAt)
        c["exp"] = .int(issuedAt + lifetime)
        return c
    }

    /// The claims every user token ends with (`tid`, v1's `unique_name` and `upn`, `uti`, `ver`, the user's own
    /// configured claims), then the signature.
    private func finishUserToken(_ c: inout JSONObject, user: User, tenant: Tenant, version: Int,
                                 overriding: JSONObject = [:]) throws(OAuthError) -> String {
        c["tid"] = .string(tenant.id)
        if version == 1 {
            c["unique_name"] = .string(signInName(user, tenant: tenant))
            // Entra: a guest's tokens carry no `upn` (their UPN in the inviting tenant is the `#EXT#` name).
            if user.homeTenantID == nil { c["upn"] = .string(user.username) }
        }
        c["uti"] = .string(tokenIdentifier())
        c["ver"] = .string(version == 2 ? "2.0" : "1.0")
        addStepUp(&c)
        c.merge(user.claims)
        c.merge(overriding)
        c.merge(extraClaims)
        return try sign(c, version: version)
    }

    static func splitName(_ name: String?) -> (given: String?, family: String?) {
        guard let name, let space = name.firstIndex(of: " ") else { return (name, nil) }
        return (String(name[..<space]), String(name[name.index(after: space)...]))
    }

    /// `client_info`: base64url (no padding) of `{"uid", "utid"}`, the user's object and tenant at home (§3.6):
    /// a guest gets the same `home_account_id` in every tenant that invited them as at home.
    func clientInfo(user: User, tenant: Tenant) -> String {
        let home = directory.homeAccount(of: user, in: tenant)
        let info: JSONValue = ["uid": .string(home.objectID), "utid": .string(home.tenantID)]
        return Base64URL.encode(info.serialized())
    }

    /// The name the user signs in with: a member's username, a guest's name at home. It is `preferred_username`
    /// (v2) and `unique_name` (v1), the same from both endpoints and in every app.
    func signInName(_ user: User, tenant: Tenant) -> String {
        user.homeTenantID == nil ? user.username : directory.homeAccount(of: user, in: tenant).username
    }

    /// Entra: `idp` names a guest's home tenant as its v1 issuer, and a guest's tokens carry `email` when known.
    private func guestClaims(_ c: inout JSONObject, user: User) {
        guard let home = user.homeTenantID else { return }
        c["idp"] = .string("https://\(cloud.v1IssuerHost)/\(home.lowercased())/")
        if let email = user.email { c["email"] = .string(email) }
    }

    // MARK: ID token

    /// An ID token for `user` and the grant's client; `extra` claims go before the profile claims, `overriding`
    /// ones (`mockidp token --claim`) replace or add to the built ones last.
    func idToken(_ grant: Grant, user: User, tenant: Tenant, version: Int, extra: JSONObject = [:],
                 overriding: JSONObject = [:]) throws(OAuthError) -> String {
        let scopes = grant.scopes?.openIDScopes ?? []
        var c = header(audience: grant.client.clientID, tenantID: tenant.id, version: version, issuedAt: grant.issuedAt)
        if let authTime = grant.authTime { c["auth_time"] = .int(authTime) }
        if version == 1 {
            c["amr"] = .array(grant.authenticationMethods.map { .string($0) })
        }
        c["aio"] = .string(opaque(48))
        if let nonce = grant.nonce { c["nonce"] = .string(nonce) }
        c.merge(extra)
        guestClaims(&c, user: user)
        if version == 2 {
            if scopes.contains("email"), let email = user.email { c["email"] = .string(email) }
            if let groups = nonEmpty(user.groups) { c["groups"] = groups }
            if scopes.contains("profile") || scopes.isEmpty { if let name = user.name { c["name"] = .string(name) } }
        } else {
            let (given, family) = Self.splitName(user.name)
            if let family { c["family_name"] = .string(family) }
            if let given { c["given_name"] = .string(given) }
            if let name = user.name { c["name"] = .string(name) }
            if let groups = nonEmpty(user.groups) { c["groups"] = groups }
        }
        c["oid"] = .string(user.objectID)
        if version == 2, scopes.contains("profile") || scopes.isEmpty {
            c["preferred_username"] = .string(signInName(user, tenant: tenant))
        }
        c["rh"] = .string("0." + opaque(40) + ".")
        let roles = user.roles.filter { grant.client.appRoles.contains($0) }
        if let r = nonEmpty(roles) { c["roles"] = r }
        c["sub"] = .string(Self.pairwiseSubject(objectID: user.objectID, appID: grant.client.clientID))
        return try finishUserToken(&c, user: user, tenant: tenant, version: version, overriding: overriding)
    }

    // MARK: access tokens

    /// A delegated access token for `user` on the grant's API, in the API's token version; `overriding` claims
    /// (`mockidp token --claim`) replace or add to the built ones last.
    func userAccessToken(_ grant: Grant, user: User, tenant: Tenant, overriding: JSONObject = [:]) throws(OAuthError) -> String {
        guard let scopes = grant.scopes else { preconditionFailure("user tokens always come with a scope request") }
        let resource = scopes.resource
        let version = resource.accessTokenVersion
        let scp = delegatedScopes(grant)
        var c = header(audience: audience(resource: resource, identifier: scopes.resourceIdentifier, version: version),
                       tenantID: tenant.id, version: version, issuedAt: grant.issuedAt)
        if version == 1 { c["acr"] = "1" }
        c["aio"] = .string(opaque(48))
        if version == 1 {
            c["amr"] = .array(grant.authenticationMethods.map { .string($0) })
            c["appid"] = .string(grant.client.clientID)
            c["appidacr"] = .string(grant.clientAuthentication)
            let (given, family) = Self.splitName(user.name)
            if let family { c["family_name"] = .string(family) }
            if let given { c["given_name"] = .string(given) }
        } else {
            c["azp"] = .string(grant.client.clientID)
            c["azpacr"] = .string(grant.clientAuthentication)
        }
        if let groups = nonEmpty(user.groups) { c["groups"] = groups }
        guestClaims(&c, user: user)
        if let name = user.name { c["name"] = .string(name) }
        c["oid"] = .string(user.objectID)
        if version == 2 { c["preferred_username"] = .string(signInName(user, tenant: tenant)) }
        c["rh"] = .string("0." + opaque(40) + ".")
        let roles = user.roles.filter { resource.definesRole($0) }
        if case .app = resource, let r = nonEmpty(roles) { c["roles"] = r }
        c["scp"] = .string(scp.joined(separator: " "))
        c["sub"] = .string(Self.pairwiseSubject(objectID: user.objectID, appID: resource.clientID))
        return try finishUserToken(&c, user: user, tenant: tenant, version: version, overriding: overriding)
    }

    /// An app-only access token (client credentials): `roles` replaces `scp` (§5.3).
    func applicationAccessToken(_ grant: Grant, roles: [String], tenant: Tenant, overriding: JSONObject = [:]) throws(OAuthError) -> String {
        guard let resource = grant.applicationResource else { preconditionFailure("app tokens always name their API") }
        let version = resource.accessTokenVersion
        let servicePrincipal = Self.servicePrincipalID(appID: grant.client.clientID, tenantID: tenant.id)
        var c = header(audience: audience(resource: resource, identifier: grant.applicationResourceIdentifier, version: version),
                       tenantID: tenant.id, version: version, issuedAt: grant.issuedAt)
        c["aio"] = .string(opaque(48))
        if version == 1 {
            c["appid"] = .string(grant.client.clientID)
            c["appidacr"] = .string(grant.clientAuthentication)
            c["idp"] = .string(v1Issuer(tenantID: tenant.id))
            c["idtyp"] = "app"
        } else {
            c["azp"] = .string(grant.client.clientID)
            c["azpacr"] = .string(grant.clientAuthentication)
            c["idtyp"] = "app"
        }
        c["oid"] = .string(servicePrincipal)
        c["rh"] = .string("0." + opaque(40) + ".")
        if let r = nonEmpty(roles) { c["roles"] = r }
        c["sub"] = .string(servicePrincipal)
        c["tid"] = .string(tenant.id)
        c["uti"] = .string(tokenIdentifier())
        c["ver"] = .string(version == 2 ? "2.0" : "1.0")
        c.merge(overriding)
        c.merge(extraClaims)
        return try sign(c, version: version)
    }

    /// A request whose `claims` ask for MFA gets `amr` with `mfa` (v2 tokens too, so tests can see it) and the
    /// authentication contexts it asked for in `acrs`.
    private func addStepUp(_ c: inout JSONObject) {
        guard let claimsRequest, claimsRequest.asksForMultiFactor else { return }
        var amr = c["amr"]?.arrayValue ?? ["pwd"]
        if !amr.contains("mfa") { amr.append("mfa") }
        c["amr"] = .array(amr)
        let contexts = claimsRequest.authenticationContexts
        if !contexts.isEmpty { c["acrs"] = .array(contexts.map { .string($0) }) }
    }

    /// Entra: v2 tokens name the API by client ID; v1 tokens by the identifier the client used (Graph by its app ID
    /// when asked for by short scope names).
    private func audience(resource: APIResource, identifier: String?, version: Int) -> String {
        if version == 2 { return resource.clientID }
        if let identifier { return identifier }
        return resource.clientID
    }

    /// The delegated scopes a user token grants (`scp`): for `.default` (and a v1 `resource`), every scope the
    /// client holds on the API; otherwise the scopes asked for.
    func delegatedScopes(_ grant: Grant) -> [String] {
        guard let scopes = grant.scopes else { return [] }
        var scp = scopes.isDefault ? defaultDelegatedScopes(client: grant.client, resource: scopes.resource) : scopes.apiScopes
        if scp.isEmpty { scp = scopes.requested.filter { $0 != "offline_access" } }
        return scp
    }

    private func defaultDelegatedScopes(client: Application, resource: APIResource) -> [String] {
        client.apiPermissions.filter { resource.isNamed($0.resource, graphResource: cloud.graphResource) }
            .flatMap(\.values).filter { resource.exposesScope($0) }
    }

    private func nonEmpty(_ values: [String]) -> JSONValue? {
        values.isEmpty ? nil : .array(values.map { .string($0) })
    }
}
