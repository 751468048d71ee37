import MockIDPCore
import MockIDPHTTP

/// Faults registered through the control API, applied in front of the endpoints they name.
extension EndpointHandlers {
    /// Answers `request` with `handler`, unless a fault matches it: then with the fault's error (sent to the app's
    /// redirect URI for authorize, when client and redirect URI check out, as Entra does), or the real answer delayed.
    func applyingFaults(_ endpoint: Endpoint, _ request: HTTPRequest, _ params: RouteParameters,
                        _ handler: Router.Handler) -> HTTPResponse {
        guard let name = endpoint.controlName, provider.hasFaults,
              let fault = provider.takeFault(for: faultTarget(name, request, params)) else {
            return handler(request, params)
        }
        var response = fault.isDelayOnly ? handler(request, params) : faultResponse(fault, endpoint, request, params)
        if let ms = fault.delayMilliseconds, ms > 0 { response.delay = .milliseconds(ms) }
        return response
    }

    /// What a fault's filters look at: the client (form, query or HTTP Basic), tenant, grant type and `claims`.
    private func faultTarget(_ name: String, _ request: HTTPRequest, _ params: RouteParameters) -> FaultTarget {
        var parameters = request.query
        if request.method == "POST",
           (request.headers["Content-Type"] ?? "").lowercased().hasPrefix("application/x-www-form-urlencoded"),
           let form = try? URLEncodedForm.decode(request.body) {
            parameters = form
        }
        let value = { (key: String) in parameters.first { $0.name == key }?.value }
        return FaultTarget(endpoint: name,
                           clientID: value("client_id") ?? Self.basicCredentials(request.headers["Authorization"])?.clientID,
                           tenant: params["tenant"], grantType: value("grant_type"),
                           claims: value("claims").flatMap(ClaimsRequest.init(json:)))
    }

    private func faultResponse(_ fault: Fault, _ endpoint: Endpoint, _ request: HTTPRequest, _ params: RouteParameters) -> HTTPResponse {
        let context = self.context(request)
        let error = fault.oauthError()
        switch endpoint {
        case .v2Authorize, .v1Authorize:
            var parameters = request.query
            if request.method == "POST", let form = try? URLEncodedForm.decode(request.body) { parameters = form }
            let check = provider.checkAuthorization(AuthorizationRequest(
                tenant: params["tenant"] ?? "", version: endpoint == .v2Authorize ? .v2 : .v1,
                parameters: parameters.filter { !Self.pageFields.contains($0.name) }))
            switch check {
            case .signIn(let validated):
                return deliverError(error, state: validated.state, to: validated.redirectURI, mode: validated.responseMode, context: context)
            case .redirectError(_, let uri, let mode, let state):
                return deliverError(error, state: state, to: uri, mode: mode, context: context)
            case .errorPage:
                return errorPage(error, context: context)
            }
        case .deviceLogin:
            return errorPage(error, context: context)
        default:
            var response = oauthError(error, context: context)
            if let seconds = fault.effectiveRetryAfter { response.headers["Retry-After"] = String(seconds) }
            return response
        }
    }
}
