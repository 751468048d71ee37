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
