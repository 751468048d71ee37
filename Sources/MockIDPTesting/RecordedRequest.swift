import MockIDPJOSE

/// One entry of `GET /_mockidp/requests`: a request the server answered, and why it was rejected.
public struct RecordedRequest: Sendable, Equatable {
    /// `method`.
    public var method: String
    /// `path` (never the query).
    public var path: String
    /// `status`.
    public var status: Int
    /// `reason`: in words, why the request was rejected; nil when it was not.
    public var reason: String?

    /// Reads one entry; nil when a required member is missing.
    init?(json: JSONValue) {
        guard let method = json["method"]?.stringValue, let path = json["path"]?.stringValue,
              let status = json["status"]?.intValue else { return nil }
        self.method = method
        self.path = path
        self.status = status
        reason = json["reason"]?.stringValue
    }
}
