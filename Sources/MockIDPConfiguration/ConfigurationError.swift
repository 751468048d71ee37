/// Every problem found in a configuration (never only the first), in file order and then line order.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    /// At least one.
    public var problems: [ConfigurationProblem]

    /// An error reporting `problems`.
    public init(problems: [ConfigurationProblem]) {
        self.problems = problems
    }

    /// One problem a line.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
