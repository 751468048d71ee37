/// A libcrypto call that failed: which call, and the reasons OpenSSL queued for it (oldest first).
public struct OpenSSLError: Error, Sendable, CustomStringConvertible {
    /// The OpenSSL function (or this module's operation) that failed, e.g. `PEM_read_bio_PrivateKey`.
    public var operation: String
    /// OpenSSL's own words for what went wrong, e.g. `PEM routines: no start line`; may be empty.
    public var reasons: [String]

    init(operation: String, reasons: [String]) {
        self.operation = operation
        self.reasons = reasons
    }

    /// A one-line message for logs.
    public var description: String {
        reasons.isEmpty ? "\(operation) failed" : "\(operation) failed: \(reasons.joined(separator: "; "))"
    }
}
