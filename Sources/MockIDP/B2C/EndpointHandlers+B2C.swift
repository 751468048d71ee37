import MockIDPCore
import MockIDPHTTP

/// The B2C dialect over HTTP: policy-scoped discovery documents, key sets and logout (authorize and token share
/// the Entra handlers, which pass the policy on).
extension EndpointHandlers {
    /// A B2C policy's discovery document or key set, or B2C's 404 for a missing or unknown policy; nil when the
    /// request is for an Entra tenant without a policy (the Entra route answers it).
    func b2cDocument(_ endpoint: B2CEndpoint, _ request: HTTPRequest, tenant: String, form: B2CPolicyForm,
                     context: RequestScope) throws(OAuthError) -> HTTPResponse? {
        guard let authority = context.b2c else { return nil }
        let key = "b2c \(endpoint.rawValue) \(form) \(context.baseURL) \(tenant) \(authority.policy.pathName)"
        return try cachedDocument(key, context: context) {
            endpoint == .keys ? provider.discovery.b2cKeySet(authority, directory: context.directory) : .success(provider.discovery.b2cOpenIDConfiguration(authority, context: context))
        }
    }
}
