import Synchronization

/// The refresh tokens' sealing key, under its own lock: tokens carry their grant sealed (`RefreshTokenSealer`), so
/// nothing is kept per token; a new key ends every token issued before.
final class RefreshTokens: Sendable {
    private let sealer = Mutex(RefreshTokenSealer())

    /// The token for `grant`.
    func seal(_ grant: RefreshGrant) -> String { sealer.withLock { $0 }.token(for: grant) }

    /// The grant sealed in `token`, or nil when this key did not seal it.
    func open(_ token: String) -> RefreshGrant? { sealer.withLock { $0 }.grant(in: token) }

    /// A new refresh token for a user grant.
    func issue(for grant: Grant, user: User, tenant: Tenant, lifetime: Int) -> String {
        issue(tenant: tenant, clientID: grant.client.clientID, user: user,
              scope: grant.scopes?.requested.joined(separator: " ") ?? "",
              clientAuthentication: grant.clientAuthentication, issuedAt: grant.issuedAt, lifetime: lifetime,
              family: grant.client.foci, policy: nil, resource: grant.scopes?.v1Resource)
    }

    /// A new refresh token (`family` for a foci app's, `policy` for B2C's, `resource` for a v1 grant's), sealed with
    /// its grant.
    func issue(tenant: Tenant, clientID: String, user: User, scope: String, clientAuthentication: ClientAuthenticationMethod,
               issuedAt: Int, lifetime: Int, family: Bool = false, policy: String?, resource: String? = nil) -> String {
        let record = RefreshGrant(tenantID: tenant.id, clientID: clientID, userObjectID: user.objectID, username: user.username,
                                  scope: scope, clientAuthentication: clientAuthentication, issuedAt: issuedAt,
                                  expiresAt: issuedAt + lifetime, family: family, policy: policy, resource: resource)
        return seal(record)
    }

    /// A new key: every refresh token issued so far is dead.
    func removeAll() { sealer.withLock { $0 = RefreshTokenSealer() } }
}
