import MockIDPJOSE

/// A protocol error as Entra reports it: an OAuth `error` code, an STS code (AADSTS), a description, optional
/// `suberror` and `claims`, the HTTP status, and whether it may go back to the redirect URI; and, where Azure AD
/// B2C words the same error its own way, B2C's code and text beside it.
///
/// The factories in this folder are the catalog: each names Entra's code and text and, where it has one, B2C's, in
/// one place. Nothing rewrites an error afterwards: `wording(in:)` picks the words for the dialect the request
/// was resolved to, and `ErrorReport` writes them.
package struct OAuthError: Error, Sendable, Equatable {
    /// The OAuth `error` (for Graph's errors, Graph's `error.code`).
    package var code: Code
    /// Entra's STS number (AADSTS…), or nil for B2C's own errors and plain OAuth errors.
    package var aadsts: Int?
    /// The message after the `AADSTSnnnn: ` prefix.
    package var message: String
    /// B2C's code and text for this error, where B2C has its own; nil where a B2C policy answers in Entra's words.
    package var b2c: B2CWording?
    /// True for errors only B2C has (an unknown policy, "Forgot your password?"): B2C's words wherever they arise.
    package var isB2COnly = false
    /// True where the real host has no resource at the path (a B2C tenant without the policy named): its web
    /// server's HTML 404 page answers, whatever the endpoint, instead of an OAuth error.
    package var isMissingResource = false
    package var suberror: Suberror?
    /// A claims challenge: a JSON object as a string.
    package var claims: String?
    package var status: Int
    /// Whether the error may be sent to the client's redirect URI (only once client and redirect URI are verified).
    package var mayRedirect: Bool
    /// Why the request was rejected, in words a test author understands (for logs and `/_mockidp/requests`).
    package var reason: String
    /// Entra's `error_additional_info` (e.g. `["client_mismatch"]` for a family refresh token), when present.
    package var additionalInfo: [String]? = nil
    /// What the native authentication API sends beside some errors: the flow's next continuation token, the
    /// attributes still required, those that failed validation.
    package var nativeAuth: NativeAuthErrorDetails? = nil

    package init(code: Code, aadsts: Int? = nil, message: String, b2c: B2CWording? = nil, suberror: Suberror? = nil,
                claims: String? = nil, status: Int = 400, mayRedirect: Bool = false, reason: String? = nil) {
        self.code = code
        self.aadsts = aadsts
        self.message = message
        self.b2c = b2c
        self.suberror = suberror
        self.claims = claims
        self.status = status
        self.mayRedirect = mayRedirect
        self.reason = reason ?? message
    }

    /// An error only B2C has: its code and text in every dialect.
    package static func b2cOnly(_ code: Code, b2cCode: String, message: String, status: Int = 400, mayRedirect: Bool = false,
                                reason: String? = nil) -> OAuthError {
        var e = OAuthError(code: code, message: message, b2c: B2CWording(code: b2cCode, message: "\(message)"), status: status,
                           mayRedirect: mayRedirect, reason: reason)
        e.isB2COnly = true
        return e
    }

    /// The words this error is sent in, in `dialect`: B2C's where the request is at a B2C policy (or the error is
    /// B2C's own) and B2C has its own words for it, else Entra's.
    package func wording(in dialect: ErrorDialect) -> ErrorWording {
        if let b2c {
            switch dialect {
            case .b2c(let tenant, let clientID):
                return ErrorWording(error: b2c.error ?? code, code: .b2c(b2c.code), message: b2c.message.text(tenant: tenant, clientID: clientID ?? ""))
            case .entra where isB2COnly:
                return ErrorWording(error: b2c.error ?? code, code: .b2c(b2c.code), message: b2c.message.text(tenant: "", clientID: ""))
            case .entra:
                break
            }
        }
        return ErrorWording(error: code, code: aadsts.map { .aadsts($0) } ?? .none, message: message)
    }

    /// `AADSTS50126: Error validating…` (Entra's words; B2C's own errors in B2C's form `AADB2C90118: …`).
    package var codeAndMessage: String { wording(in: .entra).codeAndMessage }

    /// The JSON body Entra sends for this error (see `ErrorReport`, which writes every form of it).
    package func responseBody(traceID: String, correlationID: String, timestamp: String, errorHost: String = "login.microsoftonline.com") -> JSONValue {
        ErrorReport(self, dialect: .entra, traceID: traceID, correlationID: correlationID, timestamp: timestamp, errorHost: errorHost).jsonBody
    }
}

/// Whose words an error is sent in: Entra's, or B2C's at a user flow (whose texts name the tenant as the request
/// wrote it and the request's client ID).
package enum ErrorDialect: Sendable, Equatable {
    case entra
    case b2c(tenant: String, clientID: String?)
}

/// An error as one dialect words it.
package struct ErrorWording: Sendable, Equatable {
    /// The STS code an error carries.
    package enum Code: Sendable, Equatable {
        case aadsts(Int)
        /// B2C's code; empty for an error in B2C's form without a code (an injected fault).
        case b2c(String)
        case none
    }

    /// The OAuth `error`.
    package var error: OAuthError.Code
    package var code: Code
    package var message: String

    package init(error: OAuthError.Code, code: Code, message: String) {
        self.error = error
        self.code = code
        self.message = message
    }

    /// B2C's form: only `error` and a description, no trace ID or `error_codes`.
    package var isB2C: Bool { if case .b2c = code { true } else { false } }

    /// `AADSTS50126: …`, `AADB2C90118: …`, or the bare message.
    package var codeAndMessage: String {
        switch code {
        case .aadsts(let number): "AADSTS\(number): \(message)"
        case .b2c(let code): code.isEmpty ? message : "\(code): \(message)"
        case .none: message
        }
    }
}

/// B2C's code and text for an error.
package struct B2CWording: Sendable, Equatable {
    package var code: String
    package var message: ErrorMessage
    /// B2C's OAuth `error` where it differs from Entra's (nil: the same).
    package var error: OAuthError.Code?

    package init(code: String, message: ErrorMessage, error: OAuthError.Code? = nil) {
        self.code = code
        self.message = message
        self.error = error
    }
}

/// An error text with slots for what only the request knows: the tenant as the client wrote it and the client ID.
/// Written as a string literal: `"The client ID '\(id)' … in tenant '\(.tenant)'."`.
package struct ErrorMessage: Sendable, Equatable, ExpressibleByStringInterpolation {
    /// What a slot is filled with.
    package enum Slot: Sendable, Equatable {
        case tenant
        case clientID
    }

    fileprivate enum Part: Sendable, Equatable {
        case text(String)
        case slot(Slot)
    }

    private var parts: [Part]

    package init(stringLiteral value: String) { parts = [.text(value)] }

    package init(stringInterpolation: StringInterpolation) { parts = stringInterpolation.parts }

    package struct StringInterpolation: StringInterpolationProtocol {
        fileprivate var parts: [Part] = []
        package init(literalCapacity: Int, interpolationCount: Int) {}
        package mutating func appendLiteral(_ literal: String) { parts.append(.text(literal)) }
        package mutating func appendInterpolation(_ value: some CustomStringConvertible) { parts.append(.text(value.description)) }
        package mutating func appendInterpolation(_ slot: Slot) { parts.append(.slot(slot)) }
    }

    /// The text with its slots filled.
    package func text(tenant: String, clientID: String) -> String {
        var text = ""
        for part in parts {
            switch part {
            case .text(let s): text += s
            case .slot(.tenant): text += tenant
            case .slot(.clientID): text += clientID
            }
        }
        return text
    }
}
