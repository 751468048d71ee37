import MockIDPJOSE

/// A control API call was refused (for example a user object with a typo: 400 with the problems listed).
public struct ControlAPIError: Error, Sendable, CustomStringConvertible {
    /// The call, `POST /_mockidp/…`.
    public var call: String
    /// The HTTP status.
    public var status: Int
    /// The answer's body as text (JSON listing the problems, usually).
    public var body: String

    /// `call → status: body`.
    public var description: String { "\(call) → \(status): \(body)" }
}
