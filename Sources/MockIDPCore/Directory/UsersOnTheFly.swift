import MockIDPJOSE

/// Users made on the fly (a tenant's `signIn: {anyUser: true}`): any user name in the tenant's domains signs in
/// with any password, as navikt's mock-oauth2-server lets a tester sign in as anyone. Names outside the domains, and
/// unknown tenants, are refused as for every tenant. Such users join the served directory, so the control API's reset
/// removes them again.
package struct UsersOnTheFly {
    let served: ServedDirectory

    /// The most bytes of claims JSON one sign-in may bring (the sign-in page's field, or the `claims` parameter's
    /// own members): tokens stay well below the 8 KB many HTTP servers allow in a header.
    package static let maximumSignInClaimsBytes = 4096

    /// OpenID Connect Core 1.0 §5.5: the members of a claims request. Entra reads `id_token` and `access_token`
    /// (client capabilities `xms_cc`, claims challenges); every other member of a `claims` parameter is a claim
    /// for a user made on the fly.
    package static let claimsRequestMembers: Set<String> = ["id_token", "access_token", "userinfo"]

    /// Claims a user made on the fly may not set: those that say who issued the token, for whom and when, and who
    /// the user is. The directory decides them.
    package static let protectedClaims: Set<String> = [
        "iss", "aud", "exp", "nbf", "iat", "tid", "oid", "sub", "azp", "appid", "ver", "nonce", "c_hash", "at_hash",
        "preferred_username", "upn", "unique_name", "idp", "scp", "roles", "uti", "rh", "aio", "sid",
    ]

    /// The claims of `json` (a JSON object of claim names to values) for a sign-in, or the reason they cannot be.
    /// `json` empty or blank: no claims.
    package static func signInClaims(json: String) -> Result<ClaimSet, SignInClaimsProblem> {
        if json.allSatisfy(\.isWhitespace) { return .success([:]) }
        guard json.utf8.count <= maximumSignInClaimsBytes else { return .failure(.tooLarge(json)) }
        guard let value = try? JSONValue.parse(json), let object = value.objectValue else {
            return .failure(SignInClaimsProblem("must be a JSON object such as {\"department\": \"Sales\"}"))
        }
        return checked(object)
    }

    /// The members of a `claims` request parameter that are not OpenID Connect's (`id_token`, `access_token`,
    /// `userinfo`), as claims for a user made on the fly; nil when the parameter has none (or is no JSON object,
    /// which the token endpoint's own reading of `claims` deals with).
    package static func signInClaims(claimsParameter json: String) -> Result<ClaimSet, SignInClaimsProblem>? {
        guard let value = try? JSONValue.parse(json), let object = value.objectValue else { return nil }
        let own = ClaimSet(object.filter { !claimsRequestMembers.contains($0.key) }.map { ($0.key, $0.value) })
        if own.isEmpty && !object.isEmpty { return nil }
        guard json.utf8.count <= maximumSignInClaimsBytes else { return .failure(.tooLarge(json)) }
        return checked(own)
    }

    private static func checked(_ claims: ClaimSet) -> Result<ClaimSet, SignInClaimsProblem> {
        let protected = claims.keys.filter { protectedClaims.contains($0) }
        guard protected.isEmpty else {
            return .failure(SignInClaimsProblem("may not set \(protected.joined(separator: ", ")): the directory decides them"))
        }
        return .success(claims)
    }

    /// Whether `tenant` makes a user on the fly for `username`: it allows any user, and the name is
    /// `local@domain` with one of its domains. Entra: a UPN is at most 113 characters, 64 before the `@` and 48
    /// after (Microsoft Learn, "Password policies and account restrictions in Microsoft Entra ID").
    package static func makesUserOnTheFly(_ username: String, in tenant: Tenant) -> Bool {
        guard tenant.signIn.anyUser, let at = username.lastIndex(of: "@") else { return false }
        let local = username[..<at], domain = username[username.index(after: at)...].lowercased()
        guard !local.isEmpty, local.utf8.count <= 64, domain.utf8.count <= 48, username.utf8.count <= 113,
              !username.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }),
              !local.contains("@") else { return false }
        return tenant.domains.contains { $0.lowercased() == domain }
    }

    /// The user signing in to `tenant` as `username` with `password`: a listed user whose password matches, or a
    /// user made on the fly (made now, or at an earlier sign-in; any password). `claims` (nil: keep) become the
    /// claims of a user made on the fly; a listed user cannot take them.
    func authenticatedUser(_ username: String, password: String, tenant: Tenant, directory: Directory,
                           claims: ClaimSet? = nil) throws(OAuthError) -> User {
        if let user = directory.user(username, in: tenant), !user.isMadeOnTheFly {
            // A user of a code-only External ID tenant has no password, and none signs in as them.
            guard !user.password.isEmpty, password.isSameSecret(as: user.password) else { throw .invalidPassword() }
            if let claims, !claims.isEmpty { throw .signInClaimsForListedUser(user.username) }
            return user
        }
        guard let user = userOnTheFly(username, tenant: tenant, claims: claims, directory: directory) else {
            throw .unknownUser(username, tenant: tenant.displayName)
        }
        return user
    }

    /// The tenants a sign-in page for `tenantSegment` on a host of `hostScope` makes users for: the page then
    /// says which domains, and offers the claims field.
    package func tenantsMakingUsers(tenantSegment: String, hostScope: HostScope, directory: Directory) -> [Tenant] {
        switch Authority(segment: tenantSegment, directory: directory) {
        case .tenant(let t): return t.signIn.anyUser ? [t] : []
        case .common, .organizations: return directory.configuration.tenants.filter { $0.signIn.anyUser && hostScope.serves($0) }
        case .consumers, nil: return []
        }
    }

    /// The tenant of the request (`common`, `organizations`: the one of the name's domain that this host serves)
    /// when it makes users on the fly for `username`.
    func tenantMakingUsers(_ username: String, tenantSegment: String, hostScope: HostScope, directory: Directory) -> Tenant? {
        let tenant: Tenant?
        switch Authority(segment: tenantSegment, directory: directory) {
        case .tenant(let t): tenant = t
        case .common, .organizations: tenant = directory.tenant(forUsername: username).flatMap { hostScope.serves($0) ? $0 : nil }
        case .consumers, nil: tenant = nil
        }
        return tenant.flatMap { Self.makesUserOnTheFly(username, in: $0) ? $0 : nil }
    }

    /// The user made on the fly for `username` in `tenant` (nil when the tenant does not make one), added to the
    /// served directory or updated with `claims`; the control API's reset removes it again.
    package func userOnTheFly(_ username: String, tenant: Tenant, claims: ClaimSet?, directory: Directory) -> User? {
        guard Self.makesUserOnTheFly(username, in: tenant) else { return nil }
        let existing = directory.user(username, in: tenant)
        if let existing, !existing.isMadeOnTheFly { return nil }
        let local = String(username[..<(username.lastIndex(of: "@") ?? username.endIndex)])
        var user = existing ?? User(username: username.lowercased(), password: "", name: local,
                                    objectID: User.derivedObjectID(tenantID: tenant.id, username: username),
                                    email: username.lowercased())
        user.isMadeOnTheFly = true
        if let claims { user.claims = claims }
        served.upsertUser(user, tenant: tenant.id)
        return user
    }
}

/// Why claims brought by a sign-in cannot be used, as words that follow "the claims".
package struct SignInClaimsProblem: Error, Sendable, CustomStringConvertible {
    /// The reason, such as "must be a JSON object …".
    package var description: String
    init(_ description: String) { self.description = description }

    static func tooLarge(_ json: String) -> SignInClaimsProblem {
        SignInClaimsProblem("are \(json.utf8.count) bytes; at most \(UsersOnTheFly.maximumSignInClaimsBytes) are allowed")
    }
}
