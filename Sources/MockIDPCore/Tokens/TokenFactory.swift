import MockIDPJOSE

/// Builds and signs ID and access tokens with Entra's claims (reference/entra-protocol.md §5).
struct TokenFactory {
    let key: SigningKey
    let cloud: Cloud
    let baseURL: String
    let lifetime: Int
    let random: RandomSource
    /// The request's `claims` parameter: MFA and authentication contexts it asks for show in `amr` and `acrs`.
    var claimsRequest: ClaimsRequest?
    /// Claims from the control API, merged last.
    var extraClaims = JSONObject()

    // MARK: issuers

    func v2Issuer(tenantID: String) -> String { "\(baseURL)/\(tenantID)/v2.0" }
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
    private func finishUserToken(_ c: inout JSONObject, user: User, tenant: Tenant, version: Int) throws(OAuthError) -> String {
        c["tid"] = .string(tenant.id)
        if version == 1 {
            c["unique_name"] = .string(user.username)
            c["upn"] = .string(user.username)
        }
        c["uti"] = .string(tokenIdentifier())
        c["ver"] = .string(version == 2 ? "2.0" : "1.0")
        addStepUp(&c)
        c.merge(user.claims)
        c.merge(extraClaims)
        return try sign(c, version: version)
    }

    private static func splitName(_ name: String?) -> (given: String?, family: String?) {
        guard let name, let space = name.firstIndex(of: " ") else { return (name, nil) }
        return (String(name[..<space]), String(name[name.index(after: space)...]))
    }

    /// `client_info`: base64url (no padding) of `{"uid": oid, "utid": home tenant}` (§3.6).
    static func clientInfo(user: User, tenant: Tenant) -> String {
        let info: JSONValue = ["uid": .string(user.objectID), "utid": .string(user.homeTenantID ?? tenant.id)]
        return Base64URL.encode(info.serialized())
    }

    // MARK: ID token

    func idToken(_ grant: Grant, user: User, tenant: Tenant, version: Int, extra: JSONObject = [:]) throws(OAuthError) -> String {
        let scopes = grant.scopes?.openIDScopes ?? []
        var c = header(audience: grant.client.clientID, tenantID: tenant.id, version: version, issuedAt: grant.issuedAt)
        if let authTime = grant.authTime { c["auth_time"] = .int(authTime) }
        if version == 1 {
            c["amr"] = .array(grant.authenticationMethods.map { .string($0) })
        }
        c["aio"] = .string(opaque(48))
        if let nonce = grant.nonce { c["nonce"] = .string(nonce) }
        c.merge(extra)
        if let home = user.homeTenantID { c["idp"] = .string("https://\(cloud.v1IssuerHost)/\(home)/") }
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
            c["preferred_username"] = .string(user.username)
        }
        c["rh"] = .string("0." + opaque(40) + ".")
        let roles = user.roles.filter { grant.client.appRoles.contains($0) }
        if let r = nonEmpty(roles) { c["roles"] = r }
        c["sub"] = .string(Self.pairwiseSubject(objectID: user.objectID, appID: grant.client.clientID))
        return try finishUserToken(&c, user: user, tenant: tenant, version: version)
    }

    // MARK: access tokens

    /// A delegated access token for `user` on the grant's API, in the API's token version.
    func userAccessToken(_ grant: Grant, user: User, tenant: Tenant) throws(OAuthError) -> String {
        guard let scopes = grant.scopes else { preconditionFailure("user tokens always come with a scope request") }
        let resource = scopes.resource
        let version = resource.accessTokenVersion
        var scp = scopes.isDefault ? defaultDelegatedScopes(client: grant.client, resource: resource) : scopes.apiScopes
        if scp.isEmpty { scp = scopes.requested.filter { $0 != "offline_access" } }
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
        if let home = user.homeTenantID { c["idp"] = .string("https://\(cloud.v1IssuerHost)/\(home)/") }
        if let name = user.name { c["name"] = .string(name) }
        c["oid"] = .string(user.objectID)
        if version == 2 { c["preferred_username"] = .string(user.username) }
        c["rh"] = .string("0." + opaque(40) + ".")
        let roles = user.roles.filter { resource.definesRole($0) }
        if case .app = resource, let r = nonEmpty(roles) { c["roles"] = r }
        c["scp"] = .string(scp.joined(separator: " "))
        c["sub"] = .string(Self.pairwiseSubject(objectID: user.objectID, appID: resource.clientID))
        return try finishUserToken(&c, user: user, tenant: tenant, version: version)
    }

    /// An app-only access token (client credentials): `roles` replaces `scp` (§5.3).
    func applicationAccessToken(_ grant: Grant, roles: [String], tenant: Tenant) throws(OAuthError) -> String {
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

    private func defaultDelegatedScopes(client: Application, resource: APIResource) -> [String] {
        client.apiPermissions.filter { resource.isNamed($0.resource, graphResource: cloud.graphResource) }
            .flatMap(\.values).filter { resource.exposesScope($0) }
    }

    private func nonEmpty(_ values: [String]) -> JSONValue? {
        values.isEmpty ? nil : .array(values.map { .string($0) })
    }
}
