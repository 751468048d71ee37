/// Why XML could not be read, signed or checked: one sentence, for an error page or a log.
public struct XMLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public let reason: String

    /// An error saying `reason`.
    public init(_ reason: String) { self.reason = reason }

    /// The reason.
    public var description: String { reason }
}
