/// A B2C tenant and one of its policies, as named by a request (path segment or `?p=`).
package struct B2CAuthority: Sendable {
    /// The B2C tenant, as the directory held it when the request came.
    package var tenant: Tenant
    /// The policy, with its configured spelling.
    package var policy: Policy
    /// The tenant segment as the client wrote it (B2C keeps it in endpoint URLs instead of the GUID).
    package var tenantSegment: String
    /// How the client named the policy: in the path (also `/tfp/`, `/te/`), or as `?p=`.
    package var form: B2CPolicyForm
    /// The claim that carries the policy name (`tfp` or `acr`).
    package var policyClaim: PolicyClaim
}

/// How a request names its B2C policy.
package enum B2CPolicyForm: Sendable {
    /// `/{tenant}/{policy}/…`, `/tfp/{tenant}/{policy}/…` or `/te/{tenant}/{policy}/…`.
    case path
    /// `/{tenant}/…?p={policy}`.
    case query
}

/// A request's dialect as resolved: nil for Entra, the B2C tenant and user flow, or B2C's error for a missing or
/// unknown policy (its 404 page). The edge resolves it once per request (`RequestContext.dialect`); everything below reads that.
package typealias ResolvedDialect = Result<B2CAuthority?, OAuthError>

extension IdentityProvider {
    /// Resolves the dialect of a request (the one place B2C is decided): `nil` for Entra (a tenant that is not B2C, named without a policy), the
    /// B2C tenant and policy otherwise, or B2C's 404 page for a missing or unknown policy. `status` is the HTTP
    /// status of the other errors (404 for metadata documents).
    package func b2cAuthority(tenantSegment: String, policy: String?, form: B2CPolicyForm,
                             status: Int = 400, directory: Directory? = nil) -> Result<B2CAuthority?, OAuthError> {
        let directory = directory ?? snapshot()
        let policyName = policy.flatMap { $0.isEmpty ? nil : $0 }
        guard let tenant = directory.tenant(tenantSegment) else {
            if policyName == nil { return .success(nil) }   // Entra's own tenant checks answer (common, unknown tenants)
            return .failure(.tenantNotFound(tenantSegment, forDiscovery: status == 404))
        }
        guard let settings = tenant.b2c else {
            guard let policyName else { return .success(nil) }
            return .failure(.notB2CTenant(tenantSegment, policy: policyName, status: status))
        }
        guard let policyName else { return .failure(.policyRequired(tenant: tenantSegment)) }
        // B2C matches policy names without regard to case.
        guard let configured = settings.policies.first(where: { $0.lowercased() == policyName.lowercased() }) else {
            return .failure(.policyNotFound(policyName, tenant: tenantSegment))
        }
        return .success(B2CAuthority(tenant: tenant, policy: Policy(name: configured), tenantSegment: tenantSegment,
                                     form: form, policyClaim: settings.policyClaim))
    }
}
