import MockIDPJOSE

/// A `$filter` expression of the kind Graph's directory evaluates without advanced queries: `eq` and
/// `startswith` on a property, joined by `and`, in parentheses as needed (Microsoft Learn, "Use the $filter query
/// parameter": `eq`, `startswith`, `and` are supported on the directory's common properties). Parsed by a small
/// recursive-descent parser; other OData operators are recognised and refused, never ignored.
package indirect enum GraphFilter: Sendable, Equatable {
    /// `property eq literal`.
    case equals(property: String, value: JSONValue)
    /// `startswith(property, 'prefix')` (without regard to case, as Graph compares).
    case startsWith(property: String, prefix: String)
    /// `left and right`.
    case and(GraphFilter, GraphFilter)

    /// What parsing found wrong: a syntax error (Graph's `BadRequest`) or an operator or property it does not
    /// evaluate (`Request_UnsupportedQuery`).
    package enum Problem: Error, Equatable {
        case syntax(position: Int)
        case unsupportedOperator(String)
        case unsupportedProperty(String)
    }

    /// The filterable properties of a resource: their kinds, and whether `startswith` applies.
    package struct Properties: Sendable {
        package let kinds: [String: GraphUserProperties.Kind]
        /// `User` or `Group`, as Graph's messages name the resource.
        package let resource: String

        package init(_ kinds: [String: GraphUserProperties.Kind], resource: String) {
            self.kinds = kinds
            self.resource = resource
        }
    }

    /// Parses `text` against `properties`.
    package static func parse(_ text: String, properties: Properties) -> Result<GraphFilter, Problem> {
        var parser = Parser(text: Array(text.unicodeScalars), properties: properties)
        do throws(Problem) {
            let filter = try parser.expression()
            parser.skipSpaces()
            guard parser.position == parser.text.count else { throw Problem.syntax(position: parser.position) }
            return .success(filter)
        } catch {
            return .failure(error)
        }
    }

    /// Whether `object` (a Graph object's properties) satisfies the filter.
    package func matches(_ object: JSONObject) -> Bool {
        switch self {
        case .equals(let property, let value):
            let actual = object[property] ?? .null
            if case .string(let a) = actual, case .string(let b) = value { return a.lowercased() == b.lowercased() }
            return actual == value
        case .startsWith(let property, let prefix):
            guard let actual = object[property]?.stringValue else { return false }
            return actual.lowercased().hasPrefix(prefix.lowercased())
        case .and(let left, let right):
            return left.matches(object) && right.matches(object)
        }
    }

    private struct Parser {
        let text: [Unicode.Scalar]
        let properties: Properties
        var position = 0
        /// Parentheses open now: a bound, so no filter can run the request thread's stack out.
        var depth = 0
        static let maximumDepth = 32

        /// OData operators and functions Graph knows but this server does not evaluate.
        static let unsupportedWords: Set<String> = ["or", "not", "ne", "gt", "ge", "lt", "le", "in", "has", "endswith",
                                                    "contains", "any", "all", "substringof", "tolower", "toupper"]

        mutating func skipSpaces() {
            while position < text.count, text[position] == " " { position += 1 }
        }

        mutating func expression() throws(Problem) -> GraphFilter {
            var left = try term()
            while true {
                skipSpaces()
                let start = position
                let word = identifier()
                if word.lowercased() == "and" {
                    left = .and(left, try term())
                } else {
                    if Self.unsupportedWords.contains(word.lowercased()) { throw Problem.unsupportedOperator(word) }
                    position = start
                    return left
                }
            }
        }

        mutating func term() throws(Problem) -> GraphFilter {
            skipSpaces()
            if peek("(") {
                guard depth < Self.maximumDepth else { throw Problem.syntax(position: position) }
                position += 1
                depth += 1
                defer { depth -= 1 }
                let inner = try expression()
                skipSpaces()
                guard peek(")") else { throw Problem.syntax(position: position) }
                position += 1
                return inner
            }
            let start = position
            let word = identifier()
            guard !word.isEmpty else { throw Problem.syntax(position: start) }
            skipSpaces()
            if peek("(") {
                guard word.lowercased() == "startswith" else {
                    if Self.unsupportedWords.contains(word.lowercased()) { throw Problem.unsupportedOperator(word) }
                    throw Problem.syntax(position: start)
                }
                position += 1
                skipSpaces()
                let property = try knownProperty(identifier(), at: position)
                skipSpaces()
                guard peek(",") else { throw Problem.syntax(position: position) }
                position += 1
                skipSpaces()
                guard case .string(let prefix) = try literal() else { throw Problem.syntax(position: position) }
                skipSpaces()
                guard peek(")") else { throw Problem.syntax(position: position) }
                position += 1
                guard properties.kinds[property] == .string else { throw Problem.unsupportedProperty(property) }
                return .startsWith(property: property, prefix: prefix)
            }
            if Self.unsupportedWords.contains(word.lowercased()) { throw Problem.unsupportedOperator(word) }
            let property = try knownProperty(word, at: start)
            let operatorStart = position
            let op = identifier()
            guard op.lowercased() == "eq" else {
                if Self.unsupportedWords.contains(op.lowercased()) { throw Problem.unsupportedOperator(op) }
                throw Problem.syntax(position: operatorStart)
            }
            skipSpaces()
            let value = try literal()
            guard let kind = properties.kinds[property], kind != .strings, kind.admits(value) else {
                throw Problem.unsupportedProperty(property)
            }
            return .equals(property: property, value: value)
        }

        func knownProperty(_ name: String, at position: Int) throws(Problem) -> String {
            guard !name.isEmpty else { throw Problem.syntax(position: position) }
            guard properties.kinds[name] != nil else { throw Problem.unsupportedProperty(name) }
            return name
        }

        func peek(_ c: Unicode.Scalar) -> Bool { position < text.count && text[position] == c }

        /// Letters, digits, `_` and `/` (a property path), or nothing.
        mutating func identifier() -> String {
            let start = position
            while position < text.count, text[position].properties.isAlphabetic || ("0"..."9").contains(text[position])
                    || text[position] == "_" || text[position] == "/" {
                position += 1
            }
            return String(String.UnicodeScalarView(text[start..<position]))
        }

        /// `'text'` (with `''` for a quote), `true`, `false`, `null`, or a number.
        mutating func literal() throws(Problem) -> JSONValue {
            if peek("'") {
                position += 1
                var value = String.UnicodeScalarView()
                while position < text.count {
                    if text[position] == "'" {
                        if position + 1 < text.count, text[position + 1] == "'" {
                            value.append("'")
                            position += 2
                            continue
                        }
                        position += 1
                        return .string(String(value))
                    }
                    value.append(text[position])
                    position += 1
                }
                throw Problem.syntax(position: position)
            }
            let start = position
            let word = identifier()
            switch word.lowercased() {
            case "true": return .bool(true)
            case "false": return .bool(false)
            case "null": return .null
            default:
                if let number = Int(word) { return .int(number) }
                throw Problem.syntax(position: start)
            }
        }
    }
}
