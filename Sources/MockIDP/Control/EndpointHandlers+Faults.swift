import MockIDPCore
import MockIDPHTTP

/// Where a fault can strike: the endpoint's name for `POST /_mockidp/faults`, and how its error is shown there.
struct FaultSite: Sendable {
    enum Answer: Sendable {
        /// Entra's error JSON (token, discovery, keys, …).
        case json
        /// To the app's redirect URI when client and redirect URI check out, else the error page.
        case authorize(ProtocolVersion, policyInPath: Bool)
        /// The error page (the device login page).
        case page
        /// The managed-identity host's own JSON.
        case managedIdentity(ManagedIdentityHost)
    }

    /// `Fault.endpointNames`; nil where faults never apply (the health check).
    let name: String?
    let answer: Answer

    init(_ endpoint: Endpoint) {
        name = endpoint.controlName
        switch endpoint {
        case .v2Authorize: answer = .authorize(.v2, policyInPath: false)
        case .v1Authorize: answer = .authorize(.v1, policyInPath: false)
        case .deviceLogin: answer = .page
        default: answer = .json
        }
    }

    init(_ endpoint: B2CEndpoint) {
        name = endpoint.queryFormEndpoint.controlName
        answer = endpoint == .authorize ? .authorize(.v2, policyInPath: true) : .json
        policyInPath = true
    }

    init(_ host: ManagedIdentityHost) {
        name = ManagedIdentityHost.controlName
        answer = .managedIdentity(host)
    }

    /// True for B2C's policy paths; Entra's paths reach a B2C policy only with `?p=`.
    var policyInPath = false
}

/// Faults registered through the control API, applied in front of the endpoints they name.
extension EndpointHandlers {
    /// The response of a request behind the faults for `site`: a matching fault answers with its error (or delays
    /// the real answer, which `handle` gives).
    func applyingFaults(_ site: FaultSite, _ request: HTTPRequest, _ params: RouteParameters, _ context: RequestScope,
                        _ handle: () -> HTTPResponse) -> HTTPResponse {
        guard let name = site.name, provider.controls.hasFaults,
              let fault = provider.controls.takeFault(for: faultTarget(name, request, params), directory: context.directory) else { return handle() }
        var response = fault.isDelayOnly ? handle() : faultResponse(fault, site, request, params, context)
        if let ms = fault.delayMilliseconds, ms > 0 { response.delay = .milliseconds(ms) }
        return response
    }

    /// What a fault's filters look at: the client (form, query or HTTP Basic), tenant, grant type and `claims`.
    private func faultTarget(_ name: String, _ request: HTTPRequest, _ params: RouteParameters) -> FaultTarget {
        let parameters = Self.protocolParameters(request)
        let value = { (key: String) in parameters.first { $0.name == key }?.value }
        return FaultTarget(endpoint: name, clientID: value("client_id") ?? Self.basicCredentials(request.headers["Authorization"])?.clientID,
                           tenant: params["tenant"], grantType: value("grant_type"),
                           claims: value("claims").flatMap(ClaimsRequest.init(json:)))
    }

    /// The client a request names: `client_id` among its protocol parameters, else HTTP Basic's user.
    static func clientID(of request: HTTPRequest) -> String? {
        protocolParameters(request).first { $0.name == "client_id" }?.value ?? basicCredentials(request.headers["Authorization"])?.clientID
    }

    /// The form of a form POST, else the query.
    private static func protocolParameters(_ request: HTTPRequest) -> [(name: String, value: String)] {
        if request.method == "POST",
           (request.headers["Content-Type"] ?? "").lowercased().hasPrefix("application/x-www-form-urlencoded"),
           let form = try? URLEncodedForm.decode(request.body) {
            return form
        }
        return request.query
    }

    private func faultResponse(_ fault: Fault, _ site: FaultSite, _ request: HTTPRequest, _ params: RouteParameters,
                               _ context: RequestScope) -> HTTPResponse {
        let parameters = Self.protocolParameters(request).filter { !Self.pageFields.contains($0.name) }
        let tenant = params["tenant"] ?? ""
        // At a B2C policy (as the edge resolved the dialect) the renderer sends the fault's B2C form.
        let error = fault.oauthError()
        switch site.answer {
        case .authorize(let version, let policyInPath):
            let check = provider.authorizeEndpoint.checkAuthorization(AuthorizationRequest(
                tenant: tenant, version: version, parameters: parameters, policyForm: policyInPath ? .path : .query),
                scope: context)
            switch check {
            case .signIn(let validated):
                return deliverError(error, state: validated.state, to: validated.redirectURI, mode: validated.responseMode, context: context)
            case .redirectError(_, let uri, let mode, let state):
                return deliverError(error, state: state, to: uri, mode: mode, context: context)
            case .errorPage:
                return errorPage(error, context: context)
            }
        case .page:
            return errorPage(error, context: context)
        case .json, .managedIdentity:
            let delivery: ErrorDelivery = if case .managedIdentity(let host) = site.answer { .managedIdentity(host) } else { .json }
            var response = respond(with: error, delivery, context: context)
            if let seconds = fault.effectiveRetryAfter { response.headers["Retry-After"] = String(seconds) }
            return response
        }
    }
}
