import MockIDPJOSE

extension TokenFactory {
    /// The values of the optional claims `listed` (an app manifest's `optionalClaims`) for a token of `version`,
    /// in the order listed. A claim is left out when it does not go into tokens of that version, when it needs a
    /// user and the token has none (app-only), when it needs the `profile` scope the request did not ask for, and
    /// when there is nothing to fill it with (a user without email), as Entra leaves it out (Microsoft Learn,
    /// "Optional claims reference").
    func optionalClaimValues(_ listed: [OptionalClaim], version: TokenVersion, grant: Grant, user: User?,
                             tenant: Tenant) -> JSONObject {
        var values = JSONObject()
        let profileScope = grant.scopes.map { $0.openIDScopes.isEmpty || $0.openIDScopes.contains("profile") } ?? false
        for claim in listed where claim.versions.contains(version) {
            if claim.needsProfileScope && !profileScope { continue }
            let value: JSONValue?
            switch claim.source {
            case .user, .session, .request:
                guard let user else { continue }
                value = userValue(claim, grant: grant, user: user, tenant: tenant)
            case .tenant:
                value = .string(tenant.regionScope(in: cloud))
            case .decidedElsewhere, .unmodelled:
                value = nil
            }
            if let value { values[claim.rawValue] = value }
        }
        return values
    }

    /// When the user signed in: the sign-in that led to the grant (a code's, an implicit response's), else the
    /// token request itself (ROPC, refresh: mockidp keeps no earlier sign-in time there).
    func signInTime(_ grant: Grant) -> Int { grant.authTime ?? grant.signInTime ?? grant.issuedAt }

    private func userValue(_ claim: OptionalClaim, grant: Grant, user: User, tenant: Tenant) -> JSONValue? {
        let guest = user.homeTenantID != nil && user.homeTenantID?.lowercased() != tenant.id
        switch claim {
        case .accountStatus: return .int(guest ? 1 : 0)
        case .authTime: return .int(signInTime(grant))
        // Entra: "returned if it's present and the value of the field is a standard two-letter country/region code".
        case .country:
            guard let country = user.profile["country"]?.stringValue, country.count == 2,
                  country.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic && $0.isASCII }) else { return nil }
            return .string(country.uppercased())
        case .email: return user.email.map(JSONValue.string)
        case .familyName: return (user.profile["surname"]?.stringValue ?? Self.splitName(user.name).family).map(JSONValue.string)
        case .givenName: return (user.profile["givenName"]?.stringValue ?? Self.splitName(user.name).given).map(JSONValue.string)
        case .ipAddress: return clientAddress.map(JSONValue.string)
        case .loginHint: return .string(LoginHint.encode(directory.homeAccount(of: user, in: tenant)))
        // One session per sign-in: every token of the same sign-in names the same session.
        case .sessionID:
            return .string(GUID.derived(from: "sid:\(tenant.id):\(user.objectID):\(signInTime(grant))"))
        // Entra: a guest's tokens carry no `upn` (their UPN in the inviting tenant is the `#EXT#` name).
        case .userPrincipalName: return guest ? nil : .string(user.username)
        case .preferredUsername: return .string(signInName(user, tenant: tenant))
        case .verifiedPrimaryEmail: return user.email.map { .array([.string($0)]) }
        // Entra: the email is domain-verified when its domain is one of the domains of the user's home tenant.
        case .emailDomainOwnerVerified:
            guard let email = user.email, let at = email.lastIndex(of: "@") else { return nil }
            let domain = email[email.index(after: at)...].lowercased()
            let homeID = directory.homeAccount(of: user, in: tenant).tenantID
            let home = directory.configuration.tenants.first { $0.id == homeID }
            return .bool(home?.domains.contains { $0.lowercased() == domain } ?? false)
        case .preferredDataLocation: return user.profile["preferredDataLocation"]?.stringValue.map(JSONValue.string)
        // Entra: "Formatted LL-CC ("en-us")".
        case .preferredLanguage: return user.profile["preferredLanguage"]?.stringValue.map { .string($0.lowercased()) }
        default: return nil
        }
    }
}

extension APIResource {
    /// Entra: access tokens carry the optional claims of the API they are for ("the claims apply to access tokens
    /// requested *for* the application (a web API), not claims requested *by* the application"); the built-in
    /// APIs (Graph, Azure's resources) list none.
    var optionalAccessTokenClaims: [OptionalClaim] {
        if case .app(let api) = self { return api.optionalClaims.accessToken }
        return []
    }
}

extension JSONObject {
    /// Removes and returns the member `key` (the optional claims a token's struct holds itself).
    mutating func take(_ key: String) -> JSONValue? {
        defer { self[key] = nil }
        return self[key]
    }
}
