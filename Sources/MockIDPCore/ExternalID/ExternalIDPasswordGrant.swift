/// `grant_type=password` at an External ID tenant: the resource owner password grant, which External ID refuses
/// (Microsoft Learn, "Supported features in external tenants": resource owner password credentials, "No").
struct ExternalIDPasswordGrant: GrantHandler {
    func issue(_ call: TokenCall) throws(OAuthError) -> TokenResponse {
        throw .passwordGrantNotInExternalID()
    }
}
