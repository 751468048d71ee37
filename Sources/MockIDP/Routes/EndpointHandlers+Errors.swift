import MockIDPCore
import MockIDPHTTP
import MockIDPJOSE

/// How an error reaches the client.
enum ErrorDelivery {
    /// A JSON body, for token-like endpoints (token, device code, discovery, keys, userinfo).
    case json
    /// Entra's error page, for a browser whose client or redirect URI is not verified (never redirected).
    case page
    /// To the verified redirect URI, in the response mode, with the request's `state`.
    case redirect(to: String, mode: ResponseMode, state: String?)
    /// A managed-identity host's own JSON (IMDS's `error`/`error_description`, App Service's `statusCode`/`message`).
    case managedIdentity(ManagedIdentityHost)
    /// Microsoft Graph's JSON error object, `error` holding Graph's code (Microsoft Learn, "Microsoft Graph error
    /// responses and resource types": `code`, `message`, `innerError` with `date`, `request-id`, `client-request-id`).
    case graph(requestID: String)
}

/// The one error renderer: every OAuth error leaves the server through `respond(with:_:context:)`.
extension EndpointHandlers {
    /// Renders `error` for `delivery` in the words of the request's dialect (Entra's, or B2C's at a user flow): a new trace ID, the client's correlation ID (or a new one), the time, and the
    /// cloud's login host in `error_uri`, written by Core's `ErrorReport`. The request log records `error.reason`.
    func respond(with error: OAuthError, _ delivery: ErrorDelivery, context: RequestScope) -> HTTPResponse {
        let report = ErrorReport(error, dialect: context.errorDialect, traceID: provider.newGUID(), correlationID: context.correlationID ?? provider.newGUID(),
                                 timestamp: EntraTime.timestamp(provider.clock.now()), errorHost: errorHost(context))
        var response: HTTPResponse
        switch delivery {
        case _ where error.isMissingResource:
            // No resource at this path on the real host (a B2C tenant without the policy named): its web server's
            // 404 page, `text/html`, on every endpoint (see `OAuthError.policyNotFound`).
            response = HTTPResponse.html(pages.render("not_found", [:]), status: .notFound)
        case .json:
            response = HTTPResponse.uncachedJSON(report.jsonBody.serialized(), status: HTTPStatus(rawValue: error.status))
            response.headers["x-ms-request-id"] = report.traceID
        case .page:
            response = HTTPResponse.html(pages.render("error", report.pageValues), status: .badRequest)
        case .redirect(let redirectURI, let mode, let state):
            response = deliver(report.redirectParameters(state: state), to: redirectURI, mode: mode, context: context)
        case .managedIdentity(let host):
            response = HTTPResponse.json(report.managedIdentityBody(host).serialized(), status: HTTPStatus(rawValue: error.status))
            ManagedIdentityRoutes.addHostHeaders(&response, host: host, correlationID: report.correlationID)
        case .graph(let requestID):
            let date = EntraTime.iso8601(provider.clock.now()).prefix(19)
            let body: JSONValue = ["error": [
                "code": .string(error.code.rawValue), "message": .string(error.message),
                "innerError": ["date": .string(String(date)), "request-id": .string(requestID),
                               "client-request-id": .string(context.correlationID ?? requestID)],
            ]]
            response = HTTPResponse.json(body.serialized(), status: HTTPStatus(rawValue: error.status))
            if error.status == 401 { response.headers["WWW-Authenticate"] = "Bearer realm=\"\", authorization_uri=\"https://login.microsoftonline.com/common/oauth2/authorize\", client_id=\"00000003-0000-0000-c000-000000000000\"" }
        }
        logger.debug("rejected: \(error.reason)")
        response.rejectionReason = error.reason
        return response
    }

    /// `error` as JSON.
    func oauthError(_ error: OAuthError, context: RequestScope) -> HTTPResponse { respond(with: error, .json, context: context) }

    /// `error` as JSON with RFC 6750 §3's challenge for a bearer token the endpoint does not take.
    func bearerChallenge(_ error: OAuthError, context: RequestScope) -> HTTPResponse {
        var response = oauthError(error, context: context)
        response.headers["WWW-Authenticate"] = "Bearer error=\"invalid_token\", error_description=\"\(error.message)\""
        return response
    }

    /// `error` on Entra's error page.
    func errorPage(_ error: OAuthError, context: RequestScope) -> HTTPResponse { respond(with: error, .page, context: context) }

    /// `error` sent to the client's verified redirect URI.
    func deliverError(_ error: OAuthError, state: String?, to redirectURI: String, mode: ResponseMode,
                      context: RequestScope) -> HTTPResponse {
        respond(with: error, .redirect(to: redirectURI, mode: mode, state: state), context: context)
    }
}
