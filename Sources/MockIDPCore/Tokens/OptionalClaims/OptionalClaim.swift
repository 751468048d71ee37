/// An optional claim of the app manifest's `optionalClaims`, by its wire name (Microsoft Learn, "Optional claims
/// reference": the v1.0 and v2.0 set, the v2.0-specific set and the v1.0-specific set). Each says which tokens it
/// may be listed for, which token versions it goes into, and where its value comes from.
public enum OptionalClaim: String, Sendable, CaseIterable {
    // The v1.0 and v2.0 set.
    /// `acct`: 0 for a member of the tenant, 1 for a guest.
    case accountStatus = "acct"
    /// `acrs`: authentication context IDs; present when a claims request asks for them.
    case authenticationContexts = "acrs"
    /// `auth_time`: when the user last authenticated (seconds since the epoch).
    case authTime = "auth_time"
    /// `ctry`: the user's country or region, a two-letter code.
    case country = "ctry"
    /// `email`: the user's email address.
    case email
    /// `fwd`: the client's original address inside a virtual network.
    case forwardedAddress = "fwd"
    /// `groups`: formatting of the groups claim; `groupMembershipClaims` decides whether it is sent.
    case groups
    /// `idtyp`: `app` in app-only access tokens.
    case identityType = "idtyp"
    /// `login_hint`: an opaque, base64-encoded hint for single sign-on.
    case loginHint = "login_hint"
    /// `sid`: the session the token was issued in.
    case sessionID = "sid"
    /// `tenant_ctry`: the resource tenant's country or region.
    case tenantCountry = "tenant_ctry"
    /// `tenant_region_scope`: the resource tenant's region.
    case tenantRegionScope = "tenant_region_scope"
    /// `upn`: the user principal name (also in the v2.0-specific set).
    case userPrincipalName = "upn"
    /// `verified_primary_email`: the user's primary authoritative email, as a list.
    case verifiedPrimaryEmail = "verified_primary_email"
    /// `verified_secondary_email`: the user's secondary authoritative emails, as a list.
    case verifiedSecondaryEmail = "verified_secondary_email"
    /// `vnet`: the virtual network the client came from.
    case virtualNetwork = "vnet"
    /// `xms_cc`: the client's capabilities.
    case clientCapabilities = "xms_cc"
    /// `xms_edov`: whether the owner of the email's domain is verified.
    case emailDomainOwnerVerified = "xms_edov"
    /// `xms_pdl`: the user's preferred data location (Multi-Geo), a three-letter code.
    case preferredDataLocation = "xms_pdl"
    /// `xms_pl`: the user's preferred language (`en-us`).
    case preferredLanguage = "xms_pl"
    /// `xms_tpl`: the resource tenant's preferred language (`en`).
    case tenantPreferredLanguage = "xms_tpl"
    /// `ztdid`: the Windows Autopilot device identity.
    case zeroTouchDeploymentID = "ztdid"
    // The v2.0-specific set: always in v1.0 tokens, in v2.0 tokens only when asked for.
    /// `ipaddr`: the address the client signed in from.
    case ipAddress = "ipaddr"
    /// `onprem_sid`: the user's on-premises security identifier.
    case onPremisesSecurityIdentifier = "onprem_sid"
    /// `pwd_exp`: seconds after `iat` at which the password expires, when that is soon.
    case passwordExpiration = "pwd_exp"
    /// `pwd_url`: where to change a password that expires soon.
    case passwordChangeURL = "pwd_url"
    /// `in_corp`: the client signs in from the corporate network.
    case insideCorporateNetwork = "in_corp"
    /// `family_name`: the user's surname.
    case familyName = "family_name"
    /// `given_name`: the user's first name.
    case givenName = "given_name"
    // The v1.0-specific set.
    /// `preferred_username`: the sign-in name, in v1.0 tokens.
    case preferredUsername = "preferred_username"

    /// The token an optional claim is listed for in the manifest (`optionalClaims.idToken`, `.accessToken`).
    public enum Token: String, Sendable, CaseIterable {
        /// `idToken`: the client app's ID tokens.
        case idToken
        /// `accessToken`: access tokens issued for the app as an API.
        case accessToken
    }

    /// Where the value of an optional claim comes from.
    package enum Source: Sendable, Equatable {
        /// The signed-in user (a user token only).
        case user
        /// The tenant that issues the token.
        case tenant
        /// The request (the client's address).
        case request
        /// The sign-in (its time, its session).
        case session
        /// Another setting decides (`groupMembershipClaims`, a claims request, app-only tokens): listing the claim
        /// adds nothing by itself, as in Entra.
        case decidedElsewhere
        /// Something mockidp does not model (a tenant's country or language, client capabilities, a virtual
        /// network, an on-premises directory, Autopilot, a password about to expire, the corporate network): never
        /// sent, as Entra sends none when it has no value.
        case unmodelled
    }

    /// Which tokens the claim may be listed for: `idtyp` concerns access tokens only (the reference's token type
    /// "JWT access tokens"); every other claim both.
    public var tokens: Set<Token> {
        self == .identityType ? [.accessToken] : [.idToken, .accessToken]
    }

    /// Which token versions the claim goes into: the v2.0-specific set only into v2.0 tokens ("always included in
    /// v1.0 tokens"), the v1.0-specific set only into v1.0 tokens, the rest into both.
    package var versions: Set<TokenVersion> {
        switch self {
        case .ipAddress, .onPremisesSecurityIdentifier, .passwordExpiration, .passwordChangeURL, .insideCorporateNetwork,
             .familyName, .givenName, .userPrincipalName:
            [.v2]
        case .preferredUsername: [.v1]
        default: [.v1, .v2]
        }
    }

    /// Where the value comes from.
    package var source: Source {
        switch self {
        case .accountStatus, .country, .email, .loginHint, .verifiedPrimaryEmail, .emailDomainOwnerVerified,
             .preferredDataLocation, .preferredLanguage, .familyName, .givenName, .userPrincipalName, .preferredUsername:
            .user
        case .tenantRegionScope: .tenant
        case .ipAddress: .request
        case .authTime, .sessionID: .session
        case .authenticationContexts, .groups, .identityType: .decidedElsewhere
        case .tenantCountry, .tenantPreferredLanguage, .clientCapabilities, .forwardedAddress, .virtualNetwork, .zeroTouchDeploymentID, .onPremisesSecurityIdentifier,
             .passwordExpiration, .passwordChangeURL, .insideCorporateNetwork, .verifiedSecondaryEmail:
            .unmodelled
        }
    }

    /// Entra: `family_name`, `given_name` and `upn` of the v2.0-specific set "require the profile scope".
    package var needsProfileScope: Bool { self == .familyName || self == .givenName || self == .userPrincipalName }
}

/// The manifest's `optionalClaims`: the claims added to an app's ID tokens and to access tokens for it as an API.
public struct OptionalClaims: Sendable, Equatable {
    /// `idToken`: claims added to the ID tokens the app receives.
    public var idToken: [OptionalClaim]
    /// `accessToken`: claims added to access tokens issued for the app as an API.
    public var accessToken: [OptionalClaim]

    /// The optional claims of one app.
    public init(idToken: [OptionalClaim] = [], accessToken: [OptionalClaim] = []) {
        self.idToken = idToken
        self.accessToken = accessToken
    }

    /// The claims listed for `token`.
    public subscript(token: OptionalClaim.Token) -> [OptionalClaim] {
        get { token == .idToken ? idToken : accessToken }
        set { if token == .idToken { idToken = newValue } else { accessToken = newValue } }
    }

    /// Whether nothing is listed.
    public var isEmpty: Bool { idToken.isEmpty && accessToken.isEmpty }
}
