/// Consent (docs/sign-in.md, "Consent"): an app with `consentRequired` gets delegated permissions only once the
/// user consented to them. Microsoft Learn, "Scopes and permissions in the Microsoft identity platform" (OpenID
/// Connect scopes): `openid`, `profile`, `email` and `offline_access` are Graph's delegated permissions and appear
/// on the consent page ("Sign you in", "View your basic profile", …), so they need consent like any other scope.
/// Microsoft Learn, "AADSTS65001" and "Microsoft identity platform and OAuth 2.0 On-Behalf-Of flow" (gaining
/// consent for the middle-tier application): where no page can be shown the token endpoint answers
/// `invalid_grant` with AADSTS65001 and `suberror: consent_required`, which MSAL treats as needing interaction.
///
/// The policy decides what to ask and what is missing; the consents given are kept in `Consents`.
package struct ConsentPolicy {
    let consents: Consents

    /// The delegated permissions `scopes` asks `client` for: the OpenID Connect scopes (Graph's), and the API's
    /// scopes, for `.default` the ones the app's `apiPermissions` register on that API (Entra: `.default` asks for
    /// the statically registered permissions).
    func permissions(client: Application, scopes: ScopeRequest, graphResource: String) -> [DelegatedPermission] {
        var permissions = ScopeRequest.openIDScopeNames.sorted(by: Self.openIDScopeOrder).filter(scopes.openIDScopes.contains)
            .map { DelegatedPermission(resourceID: APIResource.graphAppID, scope: $0) }
        let names = scopes.isDefault
            ? client.apiPermissions.filter { scopes.resource.isNamed($0.resource, graphResource: graphResource) }
                .flatMap(\.values).filter(scopes.resource.exposesScope)
            : scopes.apiScopes
        for name in names {
            let permission = DelegatedPermission(resourceID: scopes.resource.clientID, scope: name)
            if !permissions.contains(permission) { permissions.append(permission) }
        }
        return permissions
    }

    /// `openid` first, then `profile`, `email`, `offline_access`: the order of Entra's consent page.
    private static func openIDScopeOrder(_ a: String, _ b: String) -> Bool {
        let order = ["openid", "profile", "email", "offline_access"]
        return (order.firstIndex(of: a) ?? 4) < (order.firstIndex(of: b) ?? 4)
    }

    /// A token grant with no page to ask on (password, refresh token, on-behalf-of): AADSTS65001 when the user has
    /// not consented to every permission `scopes` asks for.
    func checkUserConsent(client: Application, user: User, tenant: Tenant, scopes: ScopeRequest, scope: RequestScope) throws(OAuthError) {
        guard client.consentRequired else { return }
        let graph = scope.cloud(for: tenant).graphResource
        let missing = consents.missing(permissions(client: client, scopes: scopes, graphResource: graph), client: client, user: user, tenant: tenant)
        guard missing.isEmpty else {
            throw .consentRequired(client: client, scopes: missing.map(\.scope),
                                   reason: "\(user.username) has not consented to \(missing.map(\.scope).joined(separator: " ")) for app '\(client.clientID)' (consentRequired)")
        }
    }

    /// What the consent page for `request` lists, once `user` of `tenant` signed in: every permission asked for
    /// (`prompt=consent`, or an app that needs no consent), or those the user has not consented to yet. Empty when
    /// nothing needs asking (B2C has no consent page of this kind).
    package func consentToAsk(_ request: ValidatedAuthorization, user: User, tenant: Tenant, context: RequestScope) -> [DelegatedPermission] {
        guard request.b2c == nil, let asked = askedPermissions(request, tenant: tenant, context: context) else { return [] }
        if request.prompt == .consent { return asked }
        return consents.missing(asked, client: request.client, user: user, tenant: tenant)
    }

    /// What the device code page asks `user` to consent to for `client` and the device code's `scope`.
    package func consentToAsk(client: Application, scope: String, user: User, tenant: Tenant, context: RequestScope) -> [DelegatedPermission] {
        guard let asked = askedPermissions(client: client, scope: scope, tenant: tenant, context: context) else { return [] }
        return consents.missing(asked, client: client, user: user, tenant: tenant)
    }

    /// Every permission an authorize request (or a device code's scope) asks for, nil when its scope does not
    /// parse in `tenant` (the token step reports that).
    package func askedPermissions(_ request: ValidatedAuthorization, tenant: Tenant, context: RequestScope) -> [DelegatedPermission]? {
        askedPermissions(client: request.client, scope: request.scope, v1Resource: request.version == .v1 ? request.resource : nil,
                         tenant: tenant, context: context)
    }

    /// Every permission `scope` (or a v1 `resource`) asks `client` for in `tenant`.
    package func askedPermissions(client: Application, scope: String, v1Resource: String? = nil, tenant: Tenant,
                                  context: RequestScope) -> [DelegatedPermission]? {
        let graph = context.cloud(for: tenant).graphResource
        let directory = context.directory
        // v1: `scope` carries only its OpenID Connect meaning; the API is `resource` (`TokenCall.userScopes`).
        let text = v1Resource.map { resource in
            (ScopeRequest.words(scope).filter(ScopeRequest.isOpenIDScope) + [ScopeRequest.v1DefaultScope(resource)]).joined(separator: " ")
        } ?? scope
        do throws(OAuthError) {
            let scopes = try ScopeRequest(text, tenant: tenant, directory: directory, graphResource: graph)
            return permissions(client: client, scopes: scopes, graphResource: graph)
        } catch {
            return nil
        }
    }

    /// How the consent page words `permission` (Entra's user consent display names; Microsoft Graph permissions
    /// reference), with the API's name for scopes of an app or an Azure service.
    package func permissionWords(_ permission: DelegatedPermission, tenant: Tenant?, context: RequestScope) -> String {
        if permission.resourceID == APIResource.graphAppID {
            return Self.graphPermissionWords[permission.scope.lowercased()] ?? "\(permission.scope) (Microsoft Graph)"
        }
        if let azure = AzureResource.all.first(where: { $0.appID == permission.resourceID }) {
            return "Access \(azure.name) as you"
        }
        let directory = context.directory
        let app = tenant.flatMap { directory.api(permission.resourceID, in: $0) }
        return "Access \(app?.displayName ?? permission.resourceID) (\(permission.scope))"
    }

    /// Graph's well-known delegated permissions as Entra's consent page shows them to a user.
    static let graphPermissionWords: [String: String] = [
        "openid": "Sign you in",
        "profile": "View your basic profile",
        "email": "View your email address",
        "offline_access": "Maintain access to data you have given it access to",
        "user.read": "Sign you in and read your profile",
        "user.readwrite": "Read and update your profile",
        "user.readbasic.all": "Read all users' basic profiles",
        "user.read.all": "Read all users' full profiles",
        "mail.read": "Read your mail",
        "mail.readwrite": "Read and write access to your mail",
        "mail.send": "Send mail as you",
        "calendars.read": "Read your calendars",
        "calendars.readwrite": "Have full access to your calendars",
        "contacts.read": "Read your contacts",
        "files.read": "Read your files",
        "files.readwrite": "Have full access to your files",
        "files.read.all": "Read all files that you have access to",
        "people.read": "Read your relevant people list",
        "group.read.all": "Read all groups",
        "groupmember.read.all": "Read group memberships",
        "directory.read.all": "Read directory data",
    ]

    /// The control API's consent (`POST /_mockidp/consents`): `username` consents to what `scope` asks `clientID` for,
    /// as accepting the consent page would. The tenant is `tenant` (an ID or domain) or the username's domain's.
    /// Returns the user's grants for the app afterwards.
    package func grantConsent(username: String, clientID: String, scope: String, tenant segment: String?,
                              context: RequestScope) -> Result<[ConsentGrant], ConsentRefusal> {
        let directory = context.directory
        guard let tenant = segment.map({ directory.tenant($0) }) ?? directory.tenant(forUsername: username) else {
            return .failure(ConsentRefusal(reason: segment.map { "no configured tenant has the id or domain '\($0)'" }
                                           ?? "no configured tenant has the domain of '\(username)' (name one with 'tenant')"))
        }
        guard let user = directory.user(username, in: tenant) else {
            return .failure(ConsentRefusal(reason: "tenant \(tenant.id) has no user '\(username)'"))
        }
        guard let client = directory.app(clientID, in: tenant) else {
            return .failure(ConsentRefusal(reason: "tenant \(tenant.id) has no app '\(clientID)'"))
        }
        let graph = context.cloud(for: tenant).graphResource
        let scopes: ScopeRequest
        do throws(OAuthError) {
            scopes = try ScopeRequest(scope, tenant: tenant, directory: directory, graphResource: graph)
        } catch {
            return .failure(ConsentRefusal(reason: "the scope is not valid: \(error.codeAndMessage)"))
        }
        let asked = permissions(client: client, scopes: scopes, graphResource: graph)
        guard !asked.isEmpty else { return .failure(ConsentRefusal(reason: "the scope '\(scope)' names no delegated permission")) }
        consents.grant(asked, client: client, user: user, tenant: tenant)
        return .success(consents.all.filter { $0.tenantID == tenant.id && $0.userObjectID == user.objectID && $0.clientID == client.clientID })
    }
}

/// Why the control API could not record a consent.
package struct ConsentRefusal: Error, Sendable {
    package var reason: String
}
