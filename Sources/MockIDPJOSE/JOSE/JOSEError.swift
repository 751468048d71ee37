/// Why a token, key or key set is not acceptable, in words fit for a log line or an error description.
public struct JOSEError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, e.g. `the token does not have three parts`.
    public var reason: String

    /// An error with `reason`.
    public init(reason: String) { self.reason = reason }

    /// The reason.
    public var description: String { reason }
}
