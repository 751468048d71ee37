import MockIDPJOSE

/// One occurrence of an error as the client receives it: the error with its trace and correlation IDs, the time,
/// and the login host its `error_uri` names. The one place that writes Entra's and B2C's error fields, for each way
/// an error travels: a JSON body, the parameters sent to a redirect URI, or the error page
/// (reference/entra-protocol.md §1.3, §4.2, §7.7).
package struct ErrorReport: Sendable {
    package var error: OAuthError
    package var traceID: String
    package var correlationID: String
    /// Entra's `YYYY-MM-DD hh:mm:ssZ`.
    package var timestamp: String
    /// The host of `error_uri`: the cloud's login host the request came to.
    package var errorHost: String

    package init(_ error: OAuthError, traceID: String, correlationID: String, timestamp: String,
                errorHost: String = "login.microsoftonline.com") {
        self.error = error
        self.traceID = traceID
        self.correlationID = correlationID
        self.timestamp = timestamp
        self.errorHost = errorHost
    }

    /// B2C writes only `error` and a description whose lines end in `\r\n`, with no trace ID.
    private var isB2C: Bool { error.aadsts == nil && error.b2cCode != nil }

    private var b2cDescription: String {
        "\(error.codeAndMessage)\r\nCorrelation ID: \(correlationID)\r\nTimestamp: \(timestamp)\r\n"
    }

    /// The JSON body of token-like endpoints.
    package var jsonBody: JSONValue {
        if isB2C { return ["error": .string(error.error), "error_description": .string(b2cDescription)] }
        var body: JSONObject = [
            "error": .string(error.error),
            "error_description": .string("\(error.codeAndMessage) Trace ID: \(traceID) Correlation ID: \(correlationID) Timestamp: \(timestamp)"),
        ]
        if let aadsts = error.aadsts { body["error_codes"] = [.int(aadsts)] }
        body["timestamp"] = .string(timestamp)
        body["trace_id"] = .string(traceID)
        body["correlation_id"] = .string(correlationID)
        if let aadsts = error.aadsts { body["error_uri"] = .string(errorURI(aadsts)) }
        if let suberror = error.suberror { body["suberror"] = .string(suberror) }
        if let claims = error.claims { body["claims"] = .string(claims) }
        if let additionalInfo = error.additionalInfo { body["error_additional_info"] = .array(additionalInfo.map { .string($0) }) }
        return .object(body)
    }

    /// The parameters sent to a verified redirect URI, `state` among them when the request had one.
    package func redirectParameters(state: String?) -> [(name: String, value: String)] {
        if isB2C {
            var parameters: [(name: String, value: String)] = [("error", error.error), ("error_description", b2cDescription)]
            if let state { parameters.append(("state", state)) }
            return parameters
        }
        var parameters: [(name: String, value: String)] = [
            ("error", error.error),
            ("error_description", "\(error.codeAndMessage)\r\nTrace ID: \(traceID)\r\nCorrelation ID: \(correlationID)\r\nTimestamp: \(timestamp)"),
        ]
        if let aadsts = error.aadsts { parameters.append(("error_uri", errorURI(aadsts))) }
        if let state { parameters.append(("state", state)) }
        parameters.append(("trace_id", traceID))
        parameters.append(("correlation_id", correlationID))
        return parameters
    }

    /// What the error page shows: the code (`AADSTS…`, a B2C code, or the OAuth error) and message, and the IDs.
    package var pageValues: [String: String] {
        ["code": error.aadsts.map { "AADSTS\($0)" } ?? error.b2cCode ?? error.error, "message": error.message,
         "traceID": traceID, "correlationID": correlationID, "timestamp": timestamp]
    }

    private func errorURI(_ aadsts: Int) -> String { "https://\(errorHost)/error?code=\(aadsts)" }
}
