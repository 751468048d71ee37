import MockIDPCore

/// What one configuration file says, field by field, each value with the place it came from: the
/// unit that merging combines and validation checks. A field a file does not set stays nil (or empty),
/// so merging overrides only what a later file spells out.
package struct ConfigurationOverlay {
    var tokens = TokensOverlay()
    var hosts: [Sourced<String>] = []
    var tenants: [TenantOverlay] = []
    var trustedIssuers: [TrustedIssuerEntry] = []
}

/// `tokens:`, each lifetime set or not.
package struct TokensOverlay {
    var lifetime: Sourced<Int>?
    var refreshLifetime: Sourced<Int>?
    var codeLifetime: Sourced<Int>?
}

/// One entry of `tenants:`. Scalar fields are nil when the file does not set them.
package struct TenantOverlay {
    /// The tenant's mapping.
    var origin: Origin
    /// Lower-case GUID.
    var id: Sourced<String>
    /// Lower-case host names.
    var domains: [Sourced<String>] = []
    var name: Sourced<String>?
    var cloud: Sourced<CloudName>?
    var regionSubScope: Sourced<RegionSubScope>?
    var signIn: Sourced<SignInSettings>?
    var b2c: Sourced<B2CSettings>?
    var externalID: Sourced<ExternalIDSettings>?
    var users: [UserEntry] = []
    var apps: [ApplicationEntry] = []
    var managedIdentities: [ManagedIdentityEntry] = []
    var groups: [GroupEntry] = []
}

/// One entry of `users:`, complete (a later file replaces a user whole), with the origins validation needs.
package struct UserEntry {
    var user: User
    /// The user's mapping.
    var origin: Origin
    var usernameOrigin: Origin
    /// The `oid` value, or the username when the object ID is derived.
    var objectIDOrigin: Origin
    var homeTenantOrigin: Origin?
}

/// One entry of `apps:`, complete (a later file replaces an app whole), with the origins validation needs.
package struct ApplicationEntry {
    var app: Application
    /// The app's mapping.
    var origin: Origin
    var clientIDOrigin: Origin
    /// Nil when the type is the default one.
    var typeOrigin: Origin?
    var secretOrigin: Origin?
    var certificatesOrigin: Origin?
    /// Where `foci: true` was written (only public clients may be in the family).
    var fociOrigin: Origin?
    /// Where a non-empty `federatedCredentials` was written (a credential: not for public clients).
    var federatedCredentialsOrigin: Origin?
    /// Parallel to `app.federatedCredentials`: where each issuer was written.
    var federatedCredentialIssuerOrigins: [Origin] = []
    /// Parallel to `app.redirectURIs`.
    var redirectURIOrigins: [Origin] = []
    /// Parallel to `app.identifierURIs`.
    var identifierURIOrigins: [Origin] = []
    /// Parallel to `app.apiPermissions`: the key, and each value.
    var permissionOrigins: [(resource: Origin, values: [Origin])] = []
}
