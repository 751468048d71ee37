import MockIDPJOSE

/// The token endpoint refused a request: Entra's error response, taken apart.
public struct TokenRequestError: Error, Sendable, CustomStringConvertible {
    /// The HTTP status (400, or 401 for `invalid_client`).
    public var status: Int
    /// `error` (`invalid_grant`, `invalid_client`, …).
    public var error: String
    /// `error_description`, starting with `AADSTSnnnn:`.
    public var errorDescription: String
    /// `error_codes` (the AADSTS numbers).
    public var errorCodes: [Int]
    /// `suberror`, when Entra sends one (`basic_action`, `consent_required`, …).
    public var suberror: String?
    /// `claims`: the claims challenge a client must answer, as a JSON string.
    public var claims: String?
    /// The whole JSON body.
    public var response: JSONObject

    /// `status error (AADSTS…): description`.
    public var description: String { "\(status) \(error) \(errorCodes): \(errorDescription)" }

    init(status: Int, body: JSONObject) {
        self.status = status
        response = body
        error = body["error"]?.stringValue ?? "(no error member)"
        errorDescription = body["error_description"]?.stringValue ?? ""
        errorCodes = body["error_codes"]?.arrayValue?.compactMap(\.intValue) ?? []
        suberror = body["suberror"]?.stringValue
        claims = body["claims"]?.stringValue
    }
}
