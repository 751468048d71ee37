import Hummingbird

/// What `GET /orders` answers a caller whose token holds.
public struct OrderList: ResponseCodable {
    public var customer: String
    public var orders: [String]
}

/// The API's routes:
/// - `GET /orders` validates the bearer token with every check `EntraTokenValidator` has.
/// - `GET /careless/orders` is the same route behind a validator that skips the audience check: a deliberate
///   mistake, there to show that mockidp's probe catches it. Never ship one.
public func buildRouter(validator: EntraTokenValidator, carelessValidator: EntraTokenValidator) -> Router<BasicRequestContext> {
    let router = Router()
    router.get("orders") { request, context -> OrderList in
        orders(for: try await validator.authorize(request, context: context))
    }
    router.get("careless/orders") { request, context -> OrderList in
        orders(for: try await carelessValidator.authorize(request, context: context))
    }
    return router
}

func orders(for caller: EntraAccessToken) -> OrderList {
    OrderList(customer: caller.preferredUsername ?? caller.sub.value, orders: ["A-1001", "A-1002"])
}

extension EntraTokenValidator {
    /// The claims of the request's `Authorization: Bearer` token, or an error whose response carries RFC 6750's
    /// `WWW-Authenticate` challenge (401 `invalid_token`, 403 `insufficient_scope`). The log says why.
    func authorize(_ request: Request, context: some RequestContext) async throws -> EntraAccessToken {
        guard let header = request.headers[.authorization], header.count > 7, header.prefix(7).lowercased() == "bearer " else {
            throw HTTPError(.unauthorized, headers: [.wwwAuthenticate: "Bearer"], message: "a bearer token is required")
        }
        do {
            return try await validate(String(header.dropFirst(7)))
        } catch {
            context.logger.info("token refused: \(error)")
            switch error {
            case .invalidToken(let why):
                throw HTTPError(.unauthorized, headers: [.wwwAuthenticate: #"Bearer error="invalid_token""#], message: why)
            case .insufficientScope(let why):
                throw HTTPError(.forbidden, headers: [.wwwAuthenticate: #"Bearer error="insufficient_scope", scope="\#(settings.requiredScope)""#],
                                message: why)
            case .keysUnavailable(let why):
                throw HTTPError(.serviceUnavailable, message: why)
            }
        }
    }
}
