import MockIDPCore
import MockIDPHTTP

/// External ID's native authentication API over HTTP: form-encoded POSTs answered with JSON (Microsoft Learn,
/// "Native authentication API reference"); the token endpoint's steps ride on the token route.
extension EndpointHandlers {
    func nativeAuth(_ call: NativeAuthCall, _ request: HTTPRequest, tenant: String, context: RequestScope) throws(OAuthError) -> HTTPResponse {
        guard request.method == "POST" else { throw .tokenEndpointRequiresPOST(method: request.method) }
        let parameters: [(name: String, value: String)]
        do { parameters = try URLEncodedForm.decode(request.body) } catch {
            throw .malformedRequest(error.description)
        }
        return try json(provider.nativeAuth.answer(call, tenant: tenant, parameters: parameters, scope: context))
    }
}
