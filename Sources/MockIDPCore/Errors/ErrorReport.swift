import MockIDPJOSE

/// One occurrence of an error as the client receives it: the error with its trace and correlation IDs, the time,
/// and the login host its `error_uri` names. The one place that writes Entra's and B2C's error fields, for each way
/// an error travels: a JSON body, the parameters sent to a redirect URI, or the error page
/// (docs/entra-behaviour.md, "Error responses").
package struct ErrorReport: Sendable {
    package var error: OAuthError
    /// The error in the words of the request's dialect.
    package var wording: ErrorWording
    package var traceID: String
    package var correlationID: String
    /// Entra's `YYYY-MM-DD hh:mm:ssZ`.
    package var timestamp: String
    /// The host of `error_uri`: the cloud's login host the request came to.
    package var errorHost: String

    package init(_ error: OAuthError, dialect: ErrorDialect, traceID: String, correlationID: String, timestamp: String,
                errorHost: String = "login.microsoftonline.com") {
        self.error = error
        wording = error.wording(in: dialect)
        self.traceID = traceID
        self.correlationID = correlationID
        self.timestamp = timestamp
        self.errorHost = errorHost
    }

    /// B2C writes only `error` and a description whose lines end in `\r\n`, with no trace ID.
    private var isB2C: Bool { wording.isB2C }

    private var aadsts: Int? { if case .aadsts(let number) = wording.code { number } else { nil } }

    private var b2cDescription: String {
        "\(wording.codeAndMessage)\r\nCorrelation ID: \(correlationID)\r\nTimestamp: \(timestamp)\r\n"
    }

    /// The JSON body of token-like endpoints.
    package var jsonBody: JSONValue {
        if isB2C { return ["error": .string(wording.error.rawValue), "error_description": .string(b2cDescription)] }
        var body: JSONObject = [
            "error": .string(wording.error.rawValue),
            "error_description": .string("\(wording.codeAndMessage) Trace ID: \(traceID) Correlation ID: \(correlationID) Timestamp: \(timestamp)"),
        ]
        if let aadsts { body["error_codes"] = [.int(aadsts)] }
        body["timestamp"] = .string(timestamp)
        body["trace_id"] = .string(traceID)
        body["correlation_id"] = .string(correlationID)
        if let aadsts { body["error_uri"] = .string(errorURI(aadsts)) }
        if let suberror = error.suberror { body["suberror"] = .string(suberror.rawValue) }
        if let claims = error.claims { body["claims"] = .string(claims) }
        if let additionalInfo = error.additionalInfo { body["error_additional_info"] = .array(additionalInfo.map { .string($0) }) }
        if let details = error.nativeAuth { details.write(into: &body) }
        return .object(body)
    }

    /// The parameters sent to a verified redirect URI, `state` among them when the request had one.
    package func redirectParameters(state: String?) -> [(name: String, value: String)] {
        if isB2C {
            var parameters: [(name: String, value: String)] = [("error", wording.error.rawValue), ("error_description", b2cDescription)]
            if let state { parameters.append(("state", state)) }
            return parameters
        }
        var parameters: [(name: String, value: String)] = [
            ("error", wording.error.rawValue),
            ("error_description", "\(wording.codeAndMessage)\r\nTrace ID: \(traceID)\r\nCorrelation ID: \(correlationID)\r\nTimestamp: \(timestamp)"),
        ]
        if let aadsts { parameters.append(("error_uri", errorURI(aadsts))) }
        if let state { parameters.append(("state", state)) }
        parameters.append(("trace_id", traceID))
        parameters.append(("correlation_id", correlationID))
        return parameters
    }

    /// What the error page shows: the code (`AADSTS…`, a B2C code, or the OAuth error) and message, and the IDs.
    package var pageValues: [String: String] {
        let code = switch wording.code {
        case .aadsts(let number): "AADSTS\(number)"
        case .b2c(let code): code
        case .none: wording.error.rawValue
        }
        return ["code": code, "message": wording.message,
         "traceID": traceID, "correlationID": correlationID, "timestamp": timestamp]
    }

    private func errorURI(_ aadsts: Int) -> String { "https://\(errorHost)/error?code=\(aadsts)" }
}
