import MockIDPJOSE

/// Builds and signs ID and access tokens with Entra's claims (docs/entra-behaviour.md, "Token claims").
struct TokenFactory {
    let key: SigningKey
    let cloud: Cloud
    /// `scheme://host[:port]` the request came to (B2C issuers name it).
    let baseURL: String
    /// `scheme://host` of Entra's v2 issuers (`RequestScope.issuerBaseURL`).
    let issuerBaseURL: String
    let lifetime: Int
    let random: RandomSource
    /// For guests' home accounts.
    let directory: Directory
    /// Apps' service principal IDs, derived once each.
    let servicePrincipals: ServicePrincipalIDs
    /// The request's `claims` parameter: MFA and authentication contexts it asks for show in `amr` and `acrs`.
    var claimsRequest: ClaimsRequest?
    /// The client's numeric address, for the `ipaddr` optional claim.
    var clientAddress: String?
    /// Claims from the control API, merged last.
    var extraClaims = JSONObject()
    /// The defect a token of a kind (whose claims have the names it is asked about) is issued with, if any: the
    /// control API's tamper faults, or `mockidp token --defect`. Nil, the usual case, costs nothing.
    var tamper: (@Sendable (TokenKind, (String) -> Bool) -> TokenDefect?)?
    /// How many groups fit in the `groups` claim before Entra sends the overage form: 200 in a JWT, 6 in a token of
    /// the implicit flow, which travels in a URL fragment (Microsoft Learn, "Configure group claims for
    /// applications": "the limit is 200 for JWT tokens … and 6 for implicit flow"; ID token claims reference, `hasgroups`).
    var groupLimit = 200

    /// `c_hash` and `at_hash` of an ID token issued beside a code or access token (OpenID Connect Core §3.3.2.11).
    struct TokenHashes {
        var code: String?
        var accessToken: String?
    }

    // MARK: issuers

    // Built in storage sized once: an interpolation grows its text as it goes.
    func v2Issuer(tenantID: String) -> String { String(joining: issuerBaseURL, "/", tenantID, "/v2.0") }
    func v1Issuer(tenantID: String) -> String { String(joining: "https://", cloud.v1IssuerHost, "/", tenantID, "/") }

    // MARK: signing

    /// Signs `claims` (a claims struct of `Claims/`) with the active key and the header of `version`; `overriding`
    /// claims replace members of the same name in place and the others follow (see `ClaimsWriter`).
    func sign(_ claims: some WritableClaims, version: TokenVersion, kind: TokenKind, overriding: JSONObject = JSONObject()) throws(OAuthError) -> String {
        do {
            let payload = ClaimsWriter.json(of: claims, overriding: overriding)
            // Tamper faults wait (rare): the claims are read back once, to match faults and to apply the defect.
            if let tamper, case .object(let issued)? = try? JSONValue.parse(payload),
               let defect = tamper(kind, { issued[$0] != nil }) {
                return try defect.token(claims: issued, key: key, version: version, inputs: tamperInputs(issued))
            }
            return try key.header(version: version).sign(payload: payload, key: key.privateKey)
        } catch let error as OAuthError {
            throw error
        } catch {
            throw OAuthError(code: .serverError, message: "The token could not be signed.", status: 500,
                             reason: "signing failed: \(error)")
        }
    }

    /// What a defect needs: another tenant of the configuration (a new GUID when there is none), and randomness.
    private func tamperInputs(_ claims: JSONObject) -> TamperInputs {
        let tenantID = claims["tid"]?.stringValue
        let other = directory.configuration.tenants.first { $0.id != tenantID }?.id ?? GUID.random(random)
        return TamperInputs(otherTenantID: other) { [random] count in random.bytes(count) }
    }

    /// What replaces or adds to the built claims, last one wins: the optional claims the manifest asks for (after
    /// the claims of the token's struct, in the order listed), the user's configured claims, then `overriding`
    /// (`mockidp token --claim`), then the control API's extra claims.
    func overrides(user: User?, _ overriding: JSONObject = JSONObject(), groupOverage: JSONObject = JSONObject(),
                   optional: JSONObject = JSONObject()) -> JSONObject {
        var all = groupOverage
        all.merge(optional)
        all.merge(user?.claims ?? JSONObject())
        all.merge(overriding)
        all.merge(extraClaims)
        return all
    }

    // MARK: shared claims

    /// Entra: `sub` is pairwise, the same user has a different `sub` in each app; 43 base64url characters.
    static func pairwiseSubject(objectID: String, appID: String) -> String {
        Base64URL.encode(Digest.sha256(Array("sub:\(objectID):\(appID.lowercased())".utf8)))
    }

    /// The object ID of an app's service principal in a tenant (stable, derived).
    static func servicePrincipalID(appID: String, tenantID: String) -> String {
        GUID.derived(from: "sp:\(tenantID):\(appID.lowercased())")
    }

    static func splitName(_ name: String?) -> (given: String?, family: String?) {
        guard let name, let space = name.firstIndex(of: " ") else { return (name, nil) }
        return (String(name[..<space]), String(name[name.index(after: space)...]))
    }

    /// `client_info`: base64url (no padding) of `{"uid", "utid"}`, the user's object and tenant at home
    /// (docs/entra-behaviour.md, "client_info"): a guest gets the same `home_account_id` in every tenant that invited
    /// them as at home.
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
    private func guestClaims(_ user: User) -> (identityProvider: String?, email: String?) {
        guard let home = user.homeTenantID else { return (nil, nil) }
        return ("https://\(cloud.v1IssuerHost)/\(home.lowercased())/", user.email)
    }

    /// Entra: a guest's tokens carry no `upn` (their UPN in the inviting tenant is the `#EXT#` name).
    private func userPrincipalName(_ user: User) -> String? { user.homeTenantID == nil ? user.username : nil }

    /// A request whose `claims` ask for MFA gets `amr` with `mfa` (v2 tokens too, so tests can see it) and the
    /// authentication contexts it asked for in `acrs`.
    private func steppedUp(_ amr: [String]?) -> (amr: [String]?, acrs: [String]?) {
        guard let claimsRequest, claimsRequest.asksForMultiFactor else { return (amr, nil) }
        var amr = amr ?? ["pwd"]
        if !amr.contains("mfa") { amr.append("mfa") }
        return (amr, nonEmpty(claimsRequest.authenticationContexts))
    }

    // MARK: ID token

    /// An ID token for `user` and the grant's client; `hashes` (hybrid flows) go after `nonce`, `overriding`
    /// claims (`mockidp token --claim`) replace or add to the built ones last.
    func idToken(_ grant: Grant, user: User, tenant: Tenant, version: TokenVersion, hashes: TokenHashes = TokenHashes(),
                 overriding: JSONObject = JSONObject()) throws(OAuthError) -> String {
        let scopes = grant.scopes?.openIDScopes ?? []
        let opaque = OpaqueClaims(random)
        let issuedAt = grant.issuedAt
        let guest = guestClaims(user)
        let roles = nonEmpty(user.roles.filter { grant.client.appRoles.contains($0) })
        let subject = Self.pairwiseSubject(objectID: user.objectID, appID: grant.client.clientID)
        let groups = groupClaims(user, tenant: tenant, manifest: grant.client.groupMembershipClaims)
        // Entra: an ID token carries the optional claims its client's manifest lists for ID tokens.
        var optional = optionalClaimValues(grant.client.optionalClaims.idToken, version: version, grant: grant, user: user, tenant: tenant)
        let optionalEmail = optional.take("email")?.stringValue
        let optionalAuthTime = optional.take("auth_time")?.intValue
        let authTime = grant.authTime ?? optionalAuthTime
        let overrides = overrides(user: user, overriding, groupOverage: groups.overage, optional: optional)
        switch version {
        case .v1:
            let (given, family) = Self.splitName(user.name)
            let stepUp = steppedUp(grant.authenticationMethods)
            let claims = V1IDTokenClaims(
                audience: grant.client.clientID, issuer: v1Issuer(tenantID: tenant.id), issuedAt: issuedAt,
                notBefore: issuedAt, expires: issuedAt + lifetime, authTime: authTime,
                authenticationMethods: stepUp.amr ?? grant.authenticationMethods, aio: opaque.aio, nonce: grant.nonce,
                codeHash: hashes.code, accessTokenHash: hashes.accessToken, identityProvider: guest.identityProvider,
                email: guest.email ?? optionalEmail, familyName: family, givenName: given, name: user.name, groups: groups.ids,
                objectID: user.objectID, refreshHint: opaque.refreshHint, roles: roles, subject: subject, tenantID: tenant.id,
                uniqueName: signInName(user, tenant: tenant), userPrincipalName: userPrincipalName(user),
                tokenIdentifier: opaque.tokenIdentifier, authenticationContexts: stepUp.acrs)
            return try sign(claims, version: .v1, kind: .id, overriding: overrides)
        case .v2:
            let profile = scopes.contains("profile") || scopes.isEmpty
            let stepUp = steppedUp(nil)
            let claims = V2IDTokenClaims(
                audience: grant.client.clientID, issuer: v2Issuer(tenantID: tenant.id), issuedAt: issuedAt,
                notBefore: issuedAt, expires: issuedAt + lifetime, authTime: authTime, aio: opaque.aio,
                nonce: grant.nonce, codeHash: hashes.code, accessTokenHash: hashes.accessToken,
                identityProvider: guest.identityProvider,
                email: guest.email ?? (scopes.contains("email") ? user.email : nil) ?? optionalEmail, groups: groups.ids,
                name: profile ? user.name : nil, objectID: user.objectID,
                preferredUsername: profile ? signInName(user, tenant: tenant) : nil, refreshHint: opaque.refreshHint,
                roles: roles, subject: subject, tenantID: tenant.id, tokenIdentifier: opaque.tokenIdentifier,
                authenticationMethods: stepUp.amr, authenticationContexts: stepUp.acrs)
            return try sign(claims, version: .v2, kind: .id, overriding: overrides)
        }
    }

    // MARK: access tokens

    /// A delegated access token for `user` on the grant's API, in the API's token version; `overriding` claims
    /// (`mockidp token --claim`) replace or add to the built ones last.
    func userAccessToken(_ grant: Grant, user: User, tenant: Tenant, overriding: JSONObject = JSONObject()) throws(OAuthError) -> String {
        guard let scopes = grant.scopes else { preconditionFailure("user tokens always come with a scope request") }
        let opaque = OpaqueClaims(random)
        let resource = scopes.resource
        let version = resource.tokenVersion
        let issuedAt = grant.issuedAt
        let audience = audience(resource: resource, identifier: scopes.resourceIdentifier, version: version)
        let guest = guestClaims(user)
        var roles: [String]?
        if case .app = resource { roles = nonEmpty(user.roles.filter { resource.definesRole($0) }) }
        let scope = delegatedScopes(grant).joined(separator: " ")
        let subject = Self.pairwiseSubject(objectID: user.objectID, appID: resource.clientID)
        // Entra: an access token carries the groups its API's manifest asks for (Graph's own asks for none).
        var manifest = GroupMembershipClaims.none
        if case .app(let api) = resource { manifest = api.groupMembershipClaims }
        let groups = groupClaims(user, tenant: tenant, manifest: manifest)
        var optional = optionalClaimValues(resource.optionalAccessTokenClaims, version: version, grant: grant, user: user, tenant: tenant)
        let optionalEmail = optional.take("email")?.stringValue
        let overrides = overrides(user: user, overriding, groupOverage: groups.overage, optional: optional)
        switch version {
        case .v1:
            let (given, family) = Self.splitName(user.name)
            let stepUp = steppedUp(grant.authenticationMethods)
            let claims = V1AccessTokenClaims(
                audience: audience, issuer: v1Issuer(tenantID: tenant.id), issuedAt: issuedAt, notBefore: issuedAt,
                expires: issuedAt + lifetime, authenticationContextClass: "1", aio: opaque.aio,
                authenticationMethods: stepUp.amr ?? grant.authenticationMethods, appID: grant.client.clientID,
                appIDAuthentication: grant.clientAuthentication.rawValue, familyName: family, givenName: given,
                groups: groups.ids, identityProvider: guest.identityProvider, email: guest.email ?? optionalEmail,
                name: user.name, objectID: user.objectID, refreshHint: opaque.refreshHint, roles: roles, scope: scope,
                subject: subject, tenantID: tenant.id, uniqueName: signInName(user, tenant: tenant),
                userPrincipalName: userPrincipalName(user), tokenIdentifier: opaque.tokenIdentifier,
                authenticationContexts: stepUp.acrs)
            return try sign(claims, version: .v1, kind: .access, overriding: overrides)
        case .v2:
            let stepUp = steppedUp(nil)
            let claims = V2AccessTokenClaims(
                audience: audience, issuer: v2Issuer(tenantID: tenant.id), issuedAt: issuedAt, notBefore: issuedAt,
                expires: issuedAt + lifetime, aio: opaque.aio, authorizedParty: grant.client.clientID,
                authorizedPartyAuthentication: grant.clientAuthentication.rawValue, groups: groups.ids,
                identityProvider: guest.identityProvider, email: guest.email ?? optionalEmail, name: user.name, objectID: user.objectID,
                preferredUsername: signInName(user, tenant: tenant), refreshHint: opaque.refreshHint, roles: roles,
                scope: scope, subject: subject, tenantID: tenant.id, tokenIdentifier: opaque.tokenIdentifier,
                authenticationMethods: stepUp.amr, authenticationContexts: stepUp.acrs)
            return try sign(claims, version: .v2, kind: .access, overriding: overrides)
        }
    }

    /// An app-only access token (client credentials): `roles` replaces `scp`
    /// (docs/entra-behaviour.md, "Access tokens"). For a `managedIdentity`, its object ID is `oid` and `sub`, and its
    /// resource ID `xms_mirid` (Microsoft Learn, access token claims reference).
    func applicationAccessToken(_ grant: Grant, roles: [String], tenant: Tenant, overriding: JSONObject = JSONObject(),
                                managedIdentity: ManagedIdentity? = nil) throws(OAuthError) -> String {
        guard let resource = grant.applicationResource else { preconditionFailure("app tokens always name their API") }
        let opaque = OpaqueClaims(random)
        let version = resource.tokenVersion
        let servicePrincipal = managedIdentity?.objectID ?? servicePrincipals.id(appID: grant.client.clientID, tenantID: tenant.id)
        let resourceID = managedIdentity?.resourceID
        let issuedAt = grant.issuedAt
        let audience = audience(resource: resource, identifier: grant.applicationResourceIdentifier, version: version)
        let optional = optionalClaimValues(resource.optionalAccessTokenClaims, version: version, grant: grant, user: nil, tenant: tenant)
        let overrides = overrides(user: nil, overriding, optional: optional)
        switch version {
        case .v1:
            let claims = V1AccessTokenClaims(
                audience: audience, issuer: v1Issuer(tenantID: tenant.id), issuedAt: issuedAt, notBefore: issuedAt,
                expires: issuedAt + lifetime, aio: opaque.aio, appID: grant.client.clientID,
                appIDAuthentication: grant.clientAuthentication.rawValue, identityProvider: v1Issuer(tenantID: tenant.id),
                identityType: "app", objectID: servicePrincipal, refreshHint: opaque.refreshHint, roles: nonEmpty(roles),
                subject: servicePrincipal, tenantID: tenant.id, tokenIdentifier: opaque.tokenIdentifier,
                managedIdentityResourceID: resourceID)
            return try sign(claims, version: .v1, kind: .access, overriding: overrides)
        case .v2:
            let claims = V2AccessTokenClaims(
                audience: audience, issuer: v2Issuer(tenantID: tenant.id), issuedAt: issuedAt, notBefore: issuedAt,
                expires: issuedAt + lifetime, aio: opaque.aio, authorizedParty: grant.client.clientID,
                authorizedPartyAuthentication: grant.clientAuthentication.rawValue, identityType: "app",
                objectID: servicePrincipal, refreshHint: opaque.refreshHint, roles: nonEmpty(roles),
                subject: servicePrincipal, tenantID: tenant.id, tokenIdentifier: opaque.tokenIdentifier,
                managedIdentityResourceID: resourceID)
            return try sign(claims, version: .v2, kind: .access, overriding: overrides)
        }
    }

    /// Entra: v2 tokens name the API by client ID; v1 tokens by the identifier the client used (Graph by its app ID
    /// when asked for by short scope names).
    private func audience(resource: APIResource, identifier: String?, version: TokenVersion) -> String {
        if version == .v2 { return resource.clientID }
        if let identifier { return identifier }
        return resource.clientID
    }

    /// The delegated scopes a user token grants (`scp`): for `.default` (and a v1 `resource`), every scope the
    /// client holds on the API; otherwise the scopes asked for. `openid`, `profile` and `email` are permissions of
    /// Microsoft Graph, so a Graph token carries those asked for beside its API scopes, which is how userinfo knows
    /// them (Entra's Graph tokens read `"scp": "openid profile User.Read email"`, as captured in the
    /// lakekeeper/lakekeeper authentication tests; Microsoft Graph permissions reference: "OpenID Connect scopes").
    func delegatedScopes(_ grant: Grant) -> [String] {
        guard let scopes = grant.scopes else { return [] }
        var scp = scopes.isDefault ? defaultDelegatedScopes(client: grant.client, resource: scopes.resource) : scopes.apiScopes
        let oidc = scopes.requested.filter { $0 != "offline_access" && scopes.openIDScopes.contains($0) && !scp.contains($0) }
        if scopes.resource == .graph { scp = oidc + scp } else if scp.isEmpty { scp = oidc }
        return scp
    }

    private func defaultDelegatedScopes(client: Application, resource: APIResource) -> [String] {
        client.apiPermissions.filter { resource.isNamed($0.resource, graphResource: cloud.graphResource) }
            .flatMap(\.values).filter { resource.exposesScope($0) }
    }

    private func nonEmpty(_ values: [String]) -> [String]? { values.isEmpty ? nil : values }

    /// The `groups` claim an app's manifest asks for, or, when more groups than `groupLimit` would go in, Entra's
    /// overage form instead: `hasgroups` in an implicit-flow token, else `_claim_names`/`_claim_sources` whose
    /// endpoint is Azure AD Graph's `getMemberObjects` for the user (Microsoft Learn, "Access tokens: Groups
    /// overage claim"; the ID token claims reference: `_claim_names`, `_claim_sources`, `hasgroups`).
    func groupClaims(_ user: User, tenant: Tenant, manifest: GroupMembershipClaims) -> (ids: [String]?, overage: JSONObject) {
        let ids = manifest.claimed(directory.groups(of: user, in: tenant))
        guard ids.count > groupLimit else { return (nonEmpty(ids), JSONObject()) }
        if groupLimit < 200 { return (nil, ["hasgroups": true]) }
        let endpoint = "https://\(cloud.cloudGraphHostName)/\(tenant.id)/users/\(user.objectID)/getMemberObjects"
        return (nil, ["_claim_names": ["groups": "src1"], "_claim_sources": ["src1": ["endpoint": .string(endpoint)]]])
    }
}
