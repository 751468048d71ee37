import MockIDPJOSE

/// The OData query options of one Graph call, read and checked: `$select`, `$top`, `$filter`, `$count` and the
/// `$skiptoken` of a next link. Anything else is refused with Graph's error, never ignored.
package struct GraphQuery: Sendable, Equatable {
    /// The properties to return (nil: the resource's default set).
    package var select: [String]?
    /// The page size asked for.
    package var top: Int?
    package var filter: GraphFilter?
    /// `$count=true`.
    package var count = false
    /// Where the page starts (from `$skiptoken`).
    package var offset = 0
    /// The options as sent, but `$skiptoken`: what a next link repeats.
    package var repeated: [(name: String, value: String)] = []

    /// Graph's page size bounds for directory objects (Microsoft Learn, "Use the $top query parameter": users,
    /// groups and other directory objects take 1 to 999).
    package static let pageSizes = 1...999
    /// The page size without `$top` (Graph's directory default).
    package static let defaultPageSize = 100

    /// What a call accepts.
    package enum Shape: Sendable {
        /// A collection: every option.
        case collection(filterable: GraphFilter.Properties)
        /// One object: `$select` only.
        case entity
        /// A media stream or an action: none.
        case none
    }

    package static func == (a: GraphQuery, b: GraphQuery) -> Bool {
        a.select == b.select && a.top == b.top && a.filter == b.filter && a.count == b.count && a.offset == b.offset
            && a.repeated.map(\.name) == b.repeated.map(\.name) && a.repeated.map(\.value) == b.repeated.map(\.value)
    }

    /// Reads `parameters` for a call of `shape` whose objects have `selectable` properties (`type` names them in
    /// OData's messages, such as `microsoft.graph.user`); `eventual` is whether `ConsistencyLevel: eventual` was sent.
    package static func read(_ parameters: [(name: String, value: String)], shape: Shape, selectable: Set<String>,
                             type: String, eventual: Bool) -> Result<GraphQuery, OAuthError> {
        var query = GraphQuery()
        var seen: Set<String> = []
        for (name, value) in parameters {
            // Graph reads system query options with or without `$` on beta; v1.0 wants the `$`. Other names are not
            // query options (OData ignores custom ones), so they are left alone.
            guard name.hasPrefix("$") else { continue }
            let option = name.lowercased()
            guard seen.insert(option).inserted else {
                return .failure(.graphBadQuery("Query option '\(name)' was specified more than once, but it must be specified at most once.",
                                               reason: "the query repeats \(name)"))
            }
            switch (option, shape) {
            case ("$select", .collection), ("$select", .entity):
                let names = value.split(separator: ",").map { $0.trimmingSpaces() }
                if let unknown = names.first(where: { !selectable.contains($0) }) {
                    return .failure(.graphBadQuery("Could not find a property named '\(unknown)' on type '\(type)'.",
                                                   reason: "$select names '\(unknown)', which \(type) does not have here"))
                }
                query.select = names
            case ("$top", .collection):
                guard let top = Int(value) else {
                    return .failure(.graphBadQuery("Invalid value '\(value)' for $top query option found. The $top query option requires a non-negative integer value.",
                                                   reason: "$top is not a number: '\(value)'"))
                }
                guard pageSizes.contains(top) else {
                    return .failure(.graphRequestBadRequest("Invalid page size specified: '\(top)'. Must be between \(pageSizes.lowerBound) and \(pageSizes.upperBound) inclusive.",
                                                            reason: "$top=\(top) is outside Graph's 1...999"))
                }
                query.top = top
            case ("$filter", .collection(let filterable)):
                switch GraphFilter.parse(value, properties: filterable) {
                case .success(let filter): query.filter = filter
                case .failure(.syntax(let position)):
                    return .failure(.graphBadQuery("Invalid filter clause: Syntax error at position \(position) in '\(value)'.",
                                                   reason: "$filter '\(value)' is malformed at position \(position)"))
                case .failure(.unsupportedOperator(let word)):
                    return .failure(.graphUnsupportedQuery("Unsupported Query.",
                                                           reason: "$filter uses '\(word)'; this server evaluates eq, startswith and and"))
                case .failure(.unsupportedProperty(let property)):
                    return .failure(.graphUnsupportedQuery("Unsupported or invalid query filter clause specified for property '\(property)' of resource '\(filterable.resource)'.",
                                                           reason: "$filter on '\(property)' of \(filterable.resource) is not supported (or its value is of the wrong type)"))
                }
            case ("$count", .collection):
                guard value == "true" || value == "false" else {
                    return .failure(.graphBadQuery("Invalid value '\(value)' for $count query option found. Valid values are 'true', 'false'.",
                                                   reason: "$count is '\(value)', not true or false"))
                }
                // Entra's directory counts only in advanced query mode (Microsoft Learn, "Advanced query
                // capabilities on Microsoft Entra ID objects": $count needs ConsistencyLevel: eventual).
                if value == "true" && !eventual {
                    return .failure(.graphRequestBadRequest("$count is not currently supported.",
                                                            reason: "$count=true needs the header ConsistencyLevel: eventual"))
                }
                query.count = value == "true"
            case ("$skiptoken", .collection):
                guard let offset = skipTokenOffset(value) else { return .failure(.graphBadSkipToken()) }
                query.offset = offset
                continue
            case ("$top", _), ("$filter", _), ("$count", _), ("$skiptoken", _), ("$orderby", _), ("$skip", _):
                if case .collection = shape {
                    return .failure(.graphRequestBadRequest("'\(name)' is not supported by this server's Microsoft Graph.",
                                                            reason: "query option \(name) is not supported here (only $select, $top, $filter, $count)"))
                }
                return .failure(.graphBadQuery("The query specified in the URI is not valid. The requested resource is not a collection. Query options $filter, $orderby, $count, $skip, and $top can be applied only on collections.",
                                               reason: "\(name) applies to collections only"))
            default:
                return .failure(.graphBadQuery("The query parameter '\(name)' is not supported.",
                                               reason: "query option \(name) is not supported by this call (this server takes $select, $top, $filter, $count on collections)"))
            }
            query.repeated.append((name, value))
        }
        return .success(query)
    }

    /// The opaque `$skiptoken` of a page starting at `offset`.
    package static func skipToken(offset: Int) -> String {
        "RFNwdAIAAQ" + Base64URL.encode(Array("mockidp:\(offset)".utf8))
    }

    static func skipTokenOffset(_ token: String) -> Int? {
        guard token.hasPrefix("RFNwdAIAAQ"), let bytes = Base64URL.decode(token.dropFirst(10)),
              let text = String(validating: bytes, as: UTF8.self), text.hasPrefix("mockidp:"),
              let offset = Int(text.dropFirst(8)), offset >= 0 else { return nil }
        return offset
    }
}
