import MockIDPCore
import MockIDPHTTP

/// The B2C dialect over HTTP: policy-scoped discovery documents, key sets and logout (authorize and token share
/// the Entra handlers, which pass the policy on).
extension EndpointHandlers {
    /// A B2C policy's discovery document or key set, or B2C's 404 for a missing or unknown policy; nil when the
    /// request is for an Entra tenant without a policy (the Entra route answers it).
    func b2cDocument(_ endpoint: B2CEndpoint, _ request: HTTPRequest, tenant: String, form: B2CPolicyForm,
                     context: RequestContext) -> HTTPResponse? {
        switch dialect(context) {
        case .failure(let error): return oauthError(error, context: context)
        case .success(nil): return nil
        case .success(let authority?):
            let key = "b2c \(endpoint.rawValue) \(form) \(context.baseURL) \(tenant) \(authority.policy.pathName)"
            return cachedDocument(key, context: context) {
                endpoint == .keys ? provider.b2cKeySet(authority) : .success(provider.b2cOpenIDConfiguration(authority, context: context))
            }
        }
    }

    /// A B2C policy's logout: B2C's error page for a missing or unknown policy; nil when the request is for an
    /// Entra tenant without a policy, or the policy is fine (the shared logout answers both).
    func b2cLogout(context: RequestContext) -> HTTPResponse? {
        guard case .failure(let error) = dialect(context) else { return nil }
        return errorPage(error, context: context)
    }

    /// The dialect the edge resolved for this request (every `{tenant}` route has one).
    func dialect(_ context: RequestContext) -> ResolvedDialect {
        guard let dialect = context.dialect else { preconditionFailure("the edge resolves the dialect of every {tenant} route") }
        return dialect
    }
}
