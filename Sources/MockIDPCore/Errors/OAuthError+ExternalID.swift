/// The errors of External ID tenants (docs/external-id.md, "What is served").
extension OAuthError {
    // Entra: Microsoft documents that external tenants have no resource owner password grant, not the error they
    // answer; this is Entra's answer to a grant type a tenant does not offer (docs/fidelity.md, "External ID").
    /// The resource owner password grant asked of an External ID tenant.
    package static func passwordGrantNotInExternalID() -> OAuthError {
        OAuthError(code: .unsupportedGrantType, aadsts: 70003,
                   message: "The app requested an unsupported grant type 'password'. External ID tenants do not support the resource owner password credentials grant; use the native authentication API.",
                   reason: "the resource owner password grant is not offered by External ID tenants (use the native authentication API, or a browser sign-in)")
    }
}
