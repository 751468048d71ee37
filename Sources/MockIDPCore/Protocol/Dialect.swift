/// Whose protocol a request speaks: Entra ID's endpoints (v1 or v2), an Azure AD B2C user flow, or a Microsoft
/// Entra External ID tenant's v2 endpoints. Resolved once
/// at the edge (`Dialect.resolve`) into the request's scope; everything below reads that.
package enum Dialect: Sendable {
    /// Entra ID, at its v1 (ADAL) or v2 endpoints.
    case entra(ProtocolVersion)
    /// A B2C tenant's user flow (policy), named in any authority form.
    case b2c(B2CAuthority)
    /// An External ID (customer) tenant at its v2 endpoints: no password grant, the native authentication API's
    /// grants, sign-up on the sign-in page.
    case externalID(Tenant)

    /// The dialect of a request for `tenantSegment` naming `policy` (nil or empty: none): Entra's for a tenant that
    /// is not B2C named without a policy (and for names the directory does not know, which Entra's own tenant
    /// checks answer; an External ID tenant's at v2), the B2C tenant and policy otherwise, or B2C's error for a missing or unknown policy.
    /// `status` is the HTTP status of the errors (404 for metadata documents).
    package static func resolve(tenantSegment: String, policy: String?, form: B2CPolicyForm, version: ProtocolVersion,
                                status: Int = 400, in directory: Directory) -> Result<Dialect, OAuthError> {
        let policyName = policy.flatMap { $0.isEmpty ? nil : $0 }
        guard let tenant = directory.tenant(tenantSegment) else {
            if policyName == nil { return .success(.entra(version)) }
            return .failure(.tenantNotFound(tenantSegment, forDiscovery: status == 404))
        }
        guard let settings = tenant.b2c else {
            guard let policyName else {
                return .success(tenant.externalID != nil && version == .v2 ? .externalID(tenant) : .entra(version))
            }
            return .failure(.notB2CTenant(tenantSegment, policy: policyName, status: status))
        }
        guard let policyName else { return .failure(.policyRequired(tenant: tenantSegment)) }
        // B2C matches policy names without regard to case.
        guard let configured = settings.policies.first(where: { $0.lowercased() == policyName.lowercased() }) else {
            return .failure(.policyNotFound(policyName, tenant: tenantSegment))
        }
        return .success(.b2c(B2CAuthority(tenant: tenant, policy: Policy(name: configured), tenantSegment: tenantSegment,
                                          form: form, policyClaim: settings.policyClaim)))
    }
}
