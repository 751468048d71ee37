import MockIDPCore
import MockIDPHTTP

/// A request on its way through a route's middleware: what matched, the scope as resolved so far, and the route.
struct RoutedRequest: Sendable {
    let http: HTTPRequest
    let parameters: RouteParameters
    var scope: RequestScope
    let route: Route
    let handlers: EndpointHandlers
    /// A B2C policy that did not resolve: refused after the host refusal, which wins when both apply.
    var dialectRefusal: OAuthError?
}

/// One step in front of a route's handler (`Route.middleware`): answers itself, changes the request, or passes it on.
protocol RouteMiddleware: Sendable {
    func respond(_ request: RoutedRequest, next: (RoutedRequest) throws -> HTTPResponse) throws -> HTTPResponse
}

/// Renders every `OAuthError` thrown after it as the route answers errors (`Route.render`); anything else is a
/// 500 `server_error` with the reason logged, never a crash.
struct ErrorRendering: RouteMiddleware {
    func respond(_ request: RoutedRequest, next: (RoutedRequest) throws -> HTTPResponse) throws -> HTTPResponse {
        do {
            return try next(request)
        } catch let error as OAuthError {
            return request.route.render(error, request.http, request.scope, request.handlers)
        } catch {
            request.handlers.logger.error("unexpected error at \(request.http.path): \(error)")
            var response = EndpointHandlers.jsonError(status: .internalServerError, error: .serverError,
                                                      description: "The server met an error it did not expect.")
            response.rejectionReason = "unexpected error: \(error)"
            return response
        }
    }
}

/// The control API's access rule (`--no-admin`, `--admin-token`, loopback only) and its cross-site refusal, on
/// control routes.
struct ControlAccess: RouteMiddleware {
    func respond(_ request: RoutedRequest, next: (RoutedRequest) throws -> HTTPResponse) throws -> HTTPResponse {
        if request.route.controlAccess,
           let refusal = request.handlers.controlAccessRefusal(request.http)
               ?? request.handlers.crossSiteRefusal(request.http, context: request.scope) {
            return refusal
        }
        return try next(request)
    }
}

/// The request's dialect, decided once from the route's version and where it names its B2C policy: everything
/// after reads `scope.dialect`, and errors at a B2C user flow are worded as B2C words them.
struct DialectResolution: RouteMiddleware {
    func respond(_ request: RoutedRequest, next: (RoutedRequest) throws -> HTTPResponse) throws -> HTTPResponse {
        var request = request
        let route = request.route
        request.scope.dialect = .entra(route.version)
        if route.policySource != nil {
            switch Dialect.resolve(tenantSegment: request.parameters["tenant"] ?? "", policy: route.policy(request.http, request.parameters),
                                   form: route.policySource == .path ? .path : .query, version: route.version,
                                   status: route.dialectErrorStatus, in: request.scope.directory) {
            case .success(let dialect):
                request.scope.dialect = dialect
                if case .b2c(let b2c) = dialect {
                    request.scope.errorDialect = .b2c(tenant: b2c.tenantSegment, clientID: EndpointHandlers.clientID(of: request.http))
                }
            case .failure(let error):
                request.dialectRefusal = error
            }
        }
        return try next(request)
    }
}

/// Entra's AADSTS90002 for a tenant the request's host does not serve (a tenant of another cloud is not found there,
/// whatever fault waits); then a B2C policy that did not resolve, before anything else runs.
struct HostRefusalCheck: RouteMiddleware {
    func respond(_ request: RoutedRequest, next: (RoutedRequest) throws -> HTTPResponse) throws -> HTTPResponse {
        if let refusal = request.route.hostRefusal, request.scope.hostScope != .neutral,
           let error = request.scope.hostRefusal(tenantSegment: request.parameters["tenant"] ?? "", forDiscovery: refusal.isDiscovery) {
            throw error
        }
        if let refusal = request.dialectRefusal { throw refusal }
        return try next(request)
    }
}

/// Faults registered through the control API, in front of the endpoints they name. A delay-only fault delays the
/// endpoint's answer whatever it is, so an error the endpoint throws is rendered here, inside the delay.
struct FaultInjection: RouteMiddleware {
    func respond(_ request: RoutedRequest, next: (RoutedRequest) throws -> HTTPResponse) throws -> HTTPResponse {
        guard let site = request.route.faultSite else { return try next(request) }
        var unexpected: (any Error)?
        let response = request.handlers.applyingFaults(site, request.http, request.parameters, request.scope) {
            do {
                return try next(request)
            } catch let error as OAuthError {
                return request.route.render(error, request.http, request.scope, request.handlers)
            } catch {
                unexpected = error
                return HTTPResponse(status: .internalServerError)
            }
        }
        if let unexpected { throw unexpected }
        return response
    }
}
