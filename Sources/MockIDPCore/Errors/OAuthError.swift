import MockIDPJOSE

/// A protocol error as Entra reports it: an OAuth `error`, an STS code (AADSTS or AADB2C), a description,
/// optional `suberror` and `claims`, the HTTP status, and whether it may go back to the redirect URI.
package struct OAuthError: Error, Sendable, Equatable {
    /// The OAuth `error` value.
    package var error: String
    /// Entra's STS number (AADSTS…), or nil for B2C codes and plain OAuth errors.
    package var aadsts: Int?
    /// A B2C code such as `AADB2C90118`; empty for an error in B2C's form without a code (an injected fault).
    package var b2cCode: String?
    /// The message after the `AADSTSnnnn: ` prefix.
    package var message: String
    package var suberror: String?
    /// A claims challenge: a JSON object as a string.
    package var claims: String?
    package var status: Int
    /// Whether the error may be sent to the client's redirect URI (only once client and redirect URI are verified).
    package var mayRedirect: Bool
    /// Why the request was rejected, in words a test author understands (for logs and `/_mockidp/requests`).
    package var reason: String
    /// Entra's `error_additional_info` (e.g. `["client_mismatch"]` for a family refresh token), when present.
    package var additionalInfo: [String]? = nil
    /// What the error is about (a parameter name, scope, redirect URI, client ID or grant type), so that the
    /// B2C dialect can word the same error its own way (`OAuthError+B2C.swift`).
    package var subject: String?

    package init(error: String, aadsts: Int? = nil, b2cCode: String? = nil, message: String, suberror: String? = nil,
                claims: String? = nil, status: Int = 400, mayRedirect: Bool = false, reason: String? = nil,
                subject: String? = nil) {
        self.error = error
        self.aadsts = aadsts
        self.b2cCode = b2cCode
        self.message = message
        self.suberror = suberror
        self.claims = claims
        self.status = status
        self.mayRedirect = mayRedirect
        self.reason = reason ?? message
        self.subject = subject
    }

    /// `AADSTS50126: Error validating…`, or the B2C form `AADB2C90118: …`.
    package var codeAndMessage: String {
        if let aadsts { return "AADSTS\(aadsts): \(message)" }
        if let b2cCode { return b2cCode.isEmpty ? message : "\(b2cCode): \(message)" }
        return message
    }

    /// The JSON body Entra sends for this error (see `ErrorReport`, which writes every form of it).
    package func responseBody(traceID: String, correlationID: String, timestamp: String, errorHost: String = "login.microsoftonline.com") -> JSONValue {
        ErrorReport(self, traceID: traceID, correlationID: correlationID, timestamp: timestamp, errorHost: errorHost).jsonBody
    }
}
