// Microsoft Graph's errors (Microsoft Learn, "Microsoft Graph error responses and resource types": the JSON
// `error` object with `code`, `message` and `innerError`). `code` holds Graph's code; `MockIDP` writes them in
// Graph's shape. Codes and texts as Graph sends them in the cases its docs and the SDKs' issue threads show.
extension OAuthError {
    private static func graph(_ code: Code, _ message: String, status: Int, reason: String) -> OAuthError {
        OAuthError(code: code, message: message, status: status, reason: reason)
    }

    /// 401 `InvalidAuthenticationToken`: no bearer token at all.
    package static func graphTokenMissing() -> OAuthError {
        graph(.graphInvalidAuthenticationToken, "Access token is empty.", status: 401,
              reason: "Graph call without an Authorization: Bearer access token")
    }

    /// 401 `InvalidAuthenticationToken`: a bearer value that is not a JWT (Graph's words for an opaque token).
    package static func graphTokenMalformed() -> OAuthError {
        graph(.graphInvalidAuthenticationToken, "IDX14100: JWT is not well formed, there are no dots (.).", status: 401,
              reason: "the Graph bearer token is not a JWT")
    }

    /// 401 `InvalidAuthenticationToken`: signature, audience, issuer or tenant are not Graph's; `why` is for the log.
    package static func graphTokenInvalid(_ detail: String, why: String) -> OAuthError {
        graph(.graphInvalidAuthenticationToken, "Access token validation failure." + (detail.isEmpty ? "" : " \(detail)"),
              status: 401, reason: "the Graph bearer token is refused: \(why)")
    }

    /// 401 `InvalidAuthenticationToken`: expired or not yet valid.
    package static func graphTokenExpired() -> OAuthError {
        graph(.graphInvalidAuthenticationToken, "Lifetime validation failed, the token is expired.", status: 401,
              reason: "the Graph bearer token has expired or is not yet valid")
    }

    /// 403 `Authorization_RequestDenied`: the token holds none of the permissions the call needs.
    package static func graphPermissionDenied(needs: String, holds: [String]) -> OAuthError {
        graph(.graphAuthorizationRequestDenied, "Insufficient privileges to complete the operation.", status: 403,
              reason: "the token's permissions (\(holds.isEmpty ? "none" : holds.joined(separator: " "))) include none of those this call needs: \(needs)")
    }

    /// 400 `BadRequest`: `/me` with an app-only token (Graph's words).
    package static func graphMeNeedsUser() -> OAuthError {
        graph(.graphBadRequest, "/me request is only valid with delegated authentication flow.", status: 400,
              reason: "/me needs a delegated (user) token; this one is app-only")
    }

    /// 404 `Request_ResourceNotFound`: no user or group with this id (or user principal name).
    package static func graphResourceNotFound(_ id: String) -> OAuthError {
        graph(.graphRequestResourceNotFound,
              "Resource '\(id)' does not exist or one of its queried reference-property objects are not present.",
              status: 404, reason: "the directory has no object '\(id)'")
    }

    /// 404 `ImageNotFound`: the user has no photo (or none of that size).
    package static func graphImageNotFound(_ user: String) -> OAuthError {
        graph(.graphImageNotFound, "Exception of type 'Microsoft.Fast.Profile.Core.Exception.ImageNotFoundException' was thrown.",
              status: 404, reason: "the user '\(user)' has no photo of that size (configure users[].photo)")
    }

    /// 400 `BadRequest`: a path segment Graph does not have here (OData's words).
    package static func graphUnknownSegment(_ segment: String) -> OAuthError {
        graph(.graphBadRequest, "Resource not found for the segment '\(segment)'.", status: 400,
              reason: "Graph has no segment '\(segment)' here (this server serves the directory slice: me, users, groups, organization)")
    }

    /// 405: the path exists, not for this method.
    package static func graphMethodNotAllowed(_ method: String, path: String) -> OAuthError {
        graph(.graphRequestBadRequest, "Specified HTTP method is not allowed for the request uri.", status: 405,
              reason: "\(path) does not accept \(method)")
    }

    /// 400 `BadRequest`: a query option this call does not take, or a malformed one (OData's words in `message`).
    package static func graphBadQuery(_ message: String, reason: String) -> OAuthError {
        graph(.graphBadRequest, message, status: 400, reason: reason)
    }

    /// 400 `Request_BadRequest`: a value Graph's directory refuses (`$top` out of range, `$count` without
    /// `ConsistencyLevel: eventual`, a request body's parameter).
    package static func graphRequestBadRequest(_ message: String, reason: String) -> OAuthError {
        graph(.graphRequestBadRequest, message, status: 400, reason: reason)
    }

    /// 400 `Request_UnsupportedQuery`: a filter Graph's directory does not evaluate.
    package static func graphUnsupportedQuery(_ message: String, reason: String) -> OAuthError {
        graph(.graphRequestUnsupportedQuery, message, status: 400, reason: reason)
    }

    /// 400 `BadRequest`: the body is not the JSON object the action takes.
    package static func graphUnreadableBody(_ why: String) -> OAuthError {
        graph(.graphBadRequest, "Unable to read JSON request payload. Please ensure Content-Type header is set and payload is of valid JSON format.",
              status: 400, reason: "the Graph request body is not valid: \(why)")
    }

    /// 400 `Directory_ExpiredPageToken`: a `$skiptoken` this server did not issue.
    package static func graphBadSkipToken() -> OAuthError {
        graph(.graphDirectoryExpiredPageToken, "The specified page token value has expired and can no longer be included in your request.",
              status: 400, reason: "the $skiptoken was not issued by this server (follow @odata.nextLink as given)")
    }
}
