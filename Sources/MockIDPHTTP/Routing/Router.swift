import MockIDPText

/// Maps a request's method and path to a route's value (a handler, or a richer description of the route).
///
/// Patterns are paths whose segments are literals, `{name}` captures (one non-empty segment) or, last only,
/// `{name...}` (the rest of the path, possibly empty). Matching works segment by segment:
/// - literals compare without regard to ASCII case (Entra treats paths case-insensitively); captures keep the original text;
/// - at the same position a literal beats a capture, and a capture beats a catch-all; the search backtracks when a
///   preferred branch leads nowhere;
/// - a trailing slash is ignored ("/a/b/" matches "/a/b");
/// - HEAD is answered by a GET route;
/// - a path that matches only under other methods is `methodNotAllowed` (405 with an `Allow` header in `Router`).
///
/// The matching itself is `RoutePatterns`, which knows routes by index and nothing of `Value`: a generic table used
/// from another module runs unspecialized, with type-metadata lookups and value-witness copies at every node a
/// path visits. Only the value of the route found is read through `Value`.
package struct RouteTable<Value: Sendable>: Sendable {
    /// What matching a method and path found.
    package enum Match {
        /// The route's value and the pattern's captures.
        case found(Value, RouteParameters)
        /// The path matches only routes of other methods, which `allowed` lists (HEAD included where GET is).
        case methodNotAllowed(allowed: [String])
        /// No route's pattern matches the path.
        case notFound
    }

    private var patterns = RoutePatterns()
    private var values: [Value] = []

    /// An empty table.
    package init() {}

    /// Adds `value` for `pattern` and the given methods (nil: any method); when routes tie, the first added wins.
    ///
    /// A malformed pattern (a brace inside a literal, an empty capture name, a catch-all that is not last, an empty
    /// segment) is a programming error and stops the program.
    package mutating func add(_ pattern: String, methods: Set<String>? = nil, _ value: Value) {
        patterns.add(pattern, methods: methods)
        values.append(value)
    }

    /// The route for `method` and `path` (a percent-decoded path without the query).
    package func match(method: String, path: String) -> Match {
        switch patterns.match(method: method, path: path) {
        case .found(let index, let parameters): .found(values[index], parameters)
        case .methodNotAllowed(let allowed): .methodNotAllowed(allowed: allowed)
        case .notFound: .notFound
        }
    }
}

/// `RouteTable`'s patterns and matching, with routes known by the order they were added.
struct RoutePatterns: Sendable {
    enum Match {
        case found(Int, RouteParameters)
        case methodNotAllowed(allowed: [String])
        case notFound
    }

    private struct Node: Sendable {
        /// Literal children: the literal's bytes with ASCII lowercased, and the child node index.
        var literals: [(literal: [UInt8], child: Int)] = []
        /// The child node for a `{capture}` segment.
        var capture: Int?
        /// Endpoints whose pattern ends at this node.
        var endpoints: [Int] = []
        /// Endpoints whose pattern continues from this node with a catch-all.
        var catchAlls: [Int] = []
    }

    private struct Endpoint: Sendable {
        var methods: Set<String>?
        var parameterNames: [String]

        func allows(_ method: String) -> Bool {
            guard let methods else { return true }
            return methods.contains(method) || (method == "HEAD" && methods.contains("GET"))
        }
    }

    private enum PatternSegment {
        case literal(String)
        case capture(String)
        case catchAll(String)
    }

    private var nodes: [Node] = [Node()]
    private var endpoints: [Endpoint] = []
    /// The most captures any pattern has: room for them is made on the stack for each match.
    private var maxCaptures = 0

    /// Adds the next route's `pattern` and methods (nil: any method).
    mutating func add(_ pattern: String, methods: Set<String>?) {
        var node = 0
        var names: [String] = []
        var catchAll = false
        for segment in Self.parse(pattern) {
            switch segment {
            case .literal(let literal):
                let key = Array(ASCII.lowercased(literal).utf8)
                if let existing = nodes[node].literals.first(where: { $0.literal == key }) {
                    node = existing.child
                } else {
                    nodes.append(Node())
                    nodes[node].literals.append((literal: key, child: nodes.count - 1))
                    node = nodes.count - 1
                }
            case .capture(let name):
                names.append(name)
                if let child = nodes[node].capture {
                    node = child
                } else {
                    nodes.append(Node())
                    nodes[node].capture = nodes.count - 1
                    node = nodes.count - 1
                }
            case .catchAll(let name):
                names.append(name)
                catchAll = true
            }
        }
        guard Set(names).count == names.count else {
            preconditionFailure("route pattern \(pattern) uses a capture name twice")
        }
        endpoints.append(Endpoint(methods: methods, parameterNames: names))
        maxCaptures = max(maxCaptures, names.count)
        if catchAll {
            nodes[node].catchAlls.append(endpoints.count - 1)
        } else {
            nodes[node].endpoints.append(endpoints.count - 1)
        }
    }

    /// The index of the route for `method` and `path`, with the captures.
    ///
    /// The path is read where its UTF-8 lies, a segment at a time by byte offsets: no array of segments or captures
    /// is made (the captures' bounds are kept on the stack), and literals are compared as lower-cased bytes, not as
    /// an array of `Substring`s, one per segment, against literals kept as `String`s.
    func match(method: String, path: String) -> Match {
        var text = path
        return text.withUTF8 { bytes in
            withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: max(1, maxCaptures)) { captures in
                var search = Search(bytes: bytes, method: method, captures: captures)
                // The leading slash opens the first segment; a path of "/" alone has none.
                let first = bytes.first == UInt8(ascii: "/") ? 1 : 0
                guard let endpointIndex = find(node: 0, at: first, &search) else {
                    guard search.otherMethodsMatched else { return .notFound }
                    var allowed = search.allowed
                    if allowed.contains("GET") { allowed.insert("HEAD") }
                    return .methodNotAllowed(allowed: allowed.sorted())
                }
                let names = endpoints[endpointIndex].parameterNames
                var values: [(name: String, value: String)] = []
                values.reserveCapacity(names.count)
                for (i, name) in names.enumerated() {
                    values.append((name: name, value: String(decoding: UnsafeBufferPointer(rebasing: bytes[captures[i]]), as: UTF8.self)))
                }
                return .found(endpointIndex, RouteParameters(values))
            }
        }
    }

    // MARK: - Matching

    private struct Search {
        let bytes: UnsafeBufferPointer<UInt8>
        let method: String
        /// The bounds of the captures so far, `captureCount` of them.
        let captures: UnsafeMutableBufferPointer<Range<Int>>
        var captureCount = 0
        var allowed: Set<String> = []
        var otherMethodsMatched = false

        init(bytes: UnsafeBufferPointer<UInt8>, method: String, captures: UnsafeMutableBufferPointer<Range<Int>>) {
            self.bytes = bytes
            self.method = method
            self.captures = captures
        }

        /// The end of the segment that starts at `start`: the next slash, or the end of the path.
        func segmentEnd(from start: Int) -> Int {
            var i = start
            while i < bytes.count, bytes[i] != UInt8(ascii: "/") { i += 1 }
            return i
        }

        /// Whether `bytes[range]` is `literal` (lower-cased) without regard to ASCII case.
        func segment(_ range: Range<Int>, is literal: [UInt8]) -> Bool {
            guard range.count == literal.count else { return false }
            return literal.withUnsafeBufferPointer { expected in
                var j = 0
                for i in range {
                    if ASCII.lower(bytes[i]) != expected[j] { return false }
                    j += 1
                }
                return true
            }
        }
    }

    /// Depth-first search in priority order: literal, capture, catch-all. Returns the endpoint index.
    /// `start` is the offset of the segment to match; at or past the end of the path no segment is left (one trailing
    /// slash leaves none). Nodes and endpoints are read in place (`nodes[nodeIndex].literals`), not bound whole: a copy
    /// of a node or an endpoint retains each of its arrays and its value, for every node a request's path visits.
    private func find(node nodeIndex: Int, at start: Int, _ search: inout Search) -> Int? {
        if start >= search.bytes.count {
            if let found = firstAllowing(nodes[nodeIndex].endpoints, &search) { return found }
        } else {
            let end = search.segmentEnd(from: start)
            let literals = nodes[nodeIndex].literals
            for i in literals.indices where search.segment(start..<end, is: literals[i].literal) {
                if let found = find(node: literals[i].child, at: end + 1, &search) { return found }
            }
            if let child = nodes[nodeIndex].capture, end > start {
                search.captures[search.captureCount] = start..<end
                search.captureCount += 1
                if let found = find(node: child, at: end + 1, &search) { return found }
                search.captureCount -= 1
            }
        }
        if !nodes[nodeIndex].catchAlls.isEmpty {
            let rest = min(start, search.bytes.count)..<search.bytes.count
            search.captures[search.captureCount] = rest
            search.captureCount += 1
            if let found = firstAllowing(nodes[nodeIndex].catchAlls, &search) { return found }
            search.captureCount -= 1
        }
        return nil
    }

    private func firstAllowing(_ candidates: [Int], _ search: inout Search) -> Int? {
        for index in candidates {
            if endpoints[index].allows(search.method) { return index }
            search.otherMethodsMatched = true
            search.allowed.formUnion(endpoints[index].methods ?? [])
        }
        return nil
    }

    /// The segments between slashes, without the leading slash's empty segment and without one trailing empty segment.
    private static func segments(of path: String) -> [Substring] {
        var segments: [Substring] = []
        segments.reserveCapacity(8)
        let utf8 = path.utf8
        // Native strings: the slashes are found in the bytes, and a segment's bounds made from their offsets (O(1)
        // for UTF-8 storage); stepping `String.Index`es byte by byte cost more than the rest of the match.
        let scanned: Void? = utf8.withContiguousStorageIfAvailable { bytes in
            func index(_ offset: Int) -> String.Index { utf8.index(utf8.startIndex, offsetBy: offset) }
            var start = bytes.first == UInt8(ascii: "/") ? 1 : 0
            var i = start
            while i < bytes.count {
                if bytes[i] == UInt8(ascii: "/") {
                    segments.append(path[index(start)..<index(i)])
                    start = i + 1
                }
                i += 1
            }
            if start < bytes.count { segments.append(path[index(start)..<utf8.endIndex]) }
        }
        if scanned != nil { return segments }
        var start = utf8.startIndex
        if start < utf8.endIndex, utf8[start] == UInt8(ascii: "/") { start = utf8.index(after: start) }
        var index = start
        while index < utf8.endIndex {
            if utf8[index] == UInt8(ascii: "/") {
                segments.append(path[start..<index])
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        if start < utf8.endIndex { segments.append(path[start..<utf8.endIndex]) }
        return segments
    }

    private static func parse(_ pattern: String) -> [PatternSegment] {
        let raw = segments(of: pattern)
        var result: [PatternSegment] = []
        for (index, text) in raw.enumerated() {
            guard !text.isEmpty else { preconditionFailure("route pattern \(pattern) has an empty segment") }
            if text.hasPrefix("{"), text.hasSuffix("}") {
                let inner = text.dropFirst().dropLast()
                if inner.hasSuffix("...") {
                    let name = inner.dropLast(3)
                    guard index == raw.count - 1 else {
                        preconditionFailure("route pattern \(pattern): a {name...} catch-all must be the last segment")
                    }
                    result.append(.catchAll(checkedName(name, in: pattern)))
                } else {
                    result.append(.capture(checkedName(inner, in: pattern)))
                }
            } else {
                guard !text.contains("{"), !text.contains("}") else {
                    preconditionFailure("route pattern \(pattern): braces must enclose a whole segment")
                }
                result.append(.literal(String(text)))
            }
        }
        return result
    }

    private static func checkedName(_ name: Substring, in pattern: String) -> String {
        guard !name.isEmpty, !name.contains("{"), !name.contains("}"), !name.contains(".") else {
            preconditionFailure("route pattern \(pattern) has an invalid capture name '\(name)'")
        }
        return String(name)
    }
}

/// A route table of handlers: answers each request with its route's handler, or 404 / 405.
package struct Router: Sendable {
    /// Answers a request whose path matched the pattern, with the pattern's captures.
    package typealias Handler = @Sendable (HTTPRequest, RouteParameters) -> HTTPResponse

    private var table = RouteTable<Handler>()
    private let notFound: @Sendable (HTTPRequest) -> HTTPResponse

    /// An empty router; requests no route matches go to `notFound` (by default a plain-text 404).
    package init(notFound: @escaping @Sendable (HTTPRequest) -> HTTPResponse = { _ in .text("Not Found\n", status: .notFound) }) {
        self.notFound = notFound
    }

    /// Adds a route for `pattern` and the given methods (nil: any method); when routes tie, the first added wins.
    /// A malformed pattern is a programming error and stops the program (see `RouteTable.add`).
    package mutating func add(_ pattern: String, methods: Set<String>? = nil, _ handler: @escaping Handler) {
        table.add(pattern, methods: methods, handler)
    }

    /// Finds the route for the request and returns its response (or 404 / 405).
    package func respond(to request: HTTPRequest) -> HTTPResponse {
        switch table.match(method: request.method, path: request.path) {
        case .found(let handler, let parameters): return handler(request, parameters)
        case .notFound: return notFound(request)
        case .methodNotAllowed(let allowed): return Self.methodNotAllowed(allowed)
        }
    }

    /// 405 with the `Allow` header (RFC 9110 §15.5.6).
    package static func methodNotAllowed(_ allowed: [String]) -> HTTPResponse {
        var response = HTTPResponse.text("Method Not Allowed\n", status: .methodNotAllowed)
        response.headers["Allow"] = allowed.joined(separator: ", ")
        return response
    }
}
