/// The values a route pattern captured from a path, by name: `{tenant}` segments and a final `{rest...}`.
package struct RouteParameters: Sendable {
    private var values: [(name: String, value: String)]

    /// Captured values in pattern order (the router builds these; tests may too).
    package init(_ values: [(name: String, value: String)] = []) {
        self.values = values
    }

    /// The value captured for `name` (exact, case-sensitive name), in the path's original spelling; nil if the pattern has no such capture.
    package subscript(name: String) -> String? {
        values.first { $0.name == name }?.value
    }
}
