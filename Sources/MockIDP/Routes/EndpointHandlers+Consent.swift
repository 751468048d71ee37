import MockIDPCore

/// The consent page's values, for the authorize flow and the device code page alike.
extension EndpointHandlers {
    /// The account, the app, and each permission in words with its scope name (docs/sign-in.md, "Consent").
    func consentValues(user: User, client: Application, permissions: [DelegatedPermission], tenant: Tenant,
                       context: RequestScope) -> [String: Any] {
        let items: [[String: Any]] = permissions.map { permission in
            ["words": provider.consentPolicy.permissionWords(permission, tenant: tenant, context: context), "scope": permission.scope]
        }
        return ["username": user.username, "appName": client.displayName, "permissions": items]
    }
}
