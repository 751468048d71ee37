import MockIDPCore
import MockIDPText
import Yams

/// A mapping's entries, after merge keys (`<<`) are applied and unknown keys reported: the value of each row of
/// its field table, or nil where the mapping does not spell the key.
struct MappingFields {
    /// The mapping itself.
    var origin: Origin
    /// The table's keys, in row order.
    let keys: [String]
    /// By row.
    var slots: [MappingEntry?]

    /// Whether the mapping spells the field's key.
    func has<Target, Model, Value>(_ field: Field<Target, Model, Value>) -> Bool {
        keys.firstIndex(of: field.key).map { slots[$0] != nil } ?? false
    }

    /// Where the value of row `index` is: its line (the key's line when the value is empty) and path.
    func origin(ofRow index: Int) -> Origin {
        guard let slot = slots[index] else { return origin.child(row: index, line: origin.line) }
        return origin.child(row: index, line: slot.value.isNull ? slot.keyNode.line : slot.value.line)
    }

    /// Where the field's value is; the mapping's line when it does not spell the key.
    func origin<Target, Model, Value>(of field: Field<Target, Model, Value>) -> Origin {
        guard let index = keys.firstIndex(of: field.key) else {
            preconditionFailure("a field is read only with its own table")
        }
        return origin(ofRow: index)
    }
}

/// One key of a mapping as written, with its value. (A struct, not a tuple: copying one then needs no
/// run-time type metadata, which showed in profiles of large files.)
struct MappingEntry {
    var key: String
    var keyNode: YAMLNode
    var value: YAMLNode
}

/// One item of a list, with its origin.
struct ListItem {
    var node: YAMLNode
    var origin: Origin
}

extension ConfigurationDecoder {
    mutating func report(_ origin: Origin, _ reason: String) {
        problems.append(origin.problem(reason))
    }

    /// The fields of a mapping with the keys of `table`, its required keys checked; nil (and a problem) when the
    /// node is no mapping.
    mutating func fields<Target, Model>(of node: YAMLNode, at origin: Origin, table: FieldTable<Target, Model>,
                                        notAMapping: String = "must be a mapping") -> MappingFields? {
        guard case .mapping(let mapping) = node.content else {
            report(origin, notAMapping)
            return nil
        }
        let here = origin.container(line: node.line, keys: table.keyTable)
        var fields = MappingFields(origin: here, keys: table.keys, slots: Array(repeating: nil, count: table.keys.count))
        for entry in pairs(of: mapping, at: here) {
            if let index = table.row(of: entry.key) {
                if fields.slots[index] == nil { fields.slots[index] = entry }
            } else {
                var reason = "unknown key '\(entry.key)'"
                if !problems.isFull, let suggestion = ConfigurationSchema.suggestion(for: entry.key, among: table.keys) {
                    reason += "; did you mean '\(suggestion)'?"
                }
                report(here.at(line: entry.keyNode.line), reason)
            }
        }
        for (index, row) in table.rows.enumerated() where row.schema.isRequired && fields.slots[index] == nil {
            report(here, "missing required key '\(row.schema.key)'")
        }
        return fields
    }

    /// Reads each field the mapping spells into `target`, in the table's reading order.
    mutating func read<Target, Model>(_ fields: MappingFields, _ table: FieldTable<Target, Model>, into target: inout Target) {
        for index in table.readingOrder {
            guard let slot = fields.slots[index] else { continue }
            table.rows[index].read(&self, slot.value, fields.origin(ofRow: index), &target)
        }
    }

    /// A mapping's entries in order, with YAML merge keys applied: `<<: *base` (or a list of aliases) adds the
    /// keys of the merged mappings that the mapping does not spell itself (the first merged mapping wins).
    /// Keys that are not scalars and keys renamed as duplicates are reported and left out.
    mutating func pairs(of mapping: YAMLNode.Mapping, at origin: Origin) -> [MappingEntry] {
        var entries: [MappingEntry] = []
        entries.reserveCapacity(mapping.count)
        // Which entries came from merged mappings: kept only once a merge key is met (most mappings have none).
        var merged: [Bool]?
        for (keyNode, value) in mapping {
            guard case .scalar(let key) = keyNode.content else {
                report(origin.at(line: keyNode.line), "a key must be a name, not a list or a mapping")
                continue
            }
            let keyText = key.string  // made once: each use would decode the key's bytes again
            if let name = YAMLDocument.originalKey(ofRenamed: keyText) {
                report(origin.at(line: keyNode.line), "duplicate key '\(name)'")
                reportedDuplicateLines.insert(keyNode.line)
                continue
            }
            // A merge key is an unquoted `<<`. (Its tag cannot tell: Yams resolved the tags of keys, without
            // rules, when it hashed them to find duplicates, and keeps what it resolved.)
            if keyText == "<<", key.style == .plain || key.style == .any {
                var flags = merged ?? Array(repeating: false, count: entries.count)
                for pair in mergedPairs(value, at: origin) {
                    entries.append(pair)
                    flags.append(true)
                }
                merged = flags
                continue
            }
            entries.append(MappingEntry(key: keyText, keyNode: keyNode, value: value))
            merged?.append(false)
        }
        guard let merged else { return entries }
        var spelled = Set<String>()
        for (entry, isMerged) in zip(entries, merged) where !isMerged { spelled.insert(entry.key) }
        var seen = Set<String>()
        var result: [MappingEntry] = []
        for (entry, isMerged) in zip(entries, merged) {
            if isMerged && (spelled.contains(entry.key) || seen.contains(entry.key)) { continue }
            seen.insert(entry.key)
            result.append(entry)
        }
        return result
    }

    private mutating func mergedPairs(_ source: YAMLNode, at origin: Origin) -> [MappingEntry] {
        switch source.content {
        case .mapping(let mapping):
            return pairs(of: mapping, at: origin)
        case .sequence(let sequence) where sequence.allSatisfy({ if case .mapping = $0.content { true } else { false } }):
            return sequence.flatMap { node -> [MappingEntry] in
                guard case .mapping(let mapping) = node.content else { return [] }
                return pairs(of: mapping, at: origin)
            }
        default:
            report(origin.at(line: source.line), "a merge key (<<) takes a mapping or a list of mappings")
            return []
        }
    }

    /// The items of a list with their origins; none (and no problem) when the value is empty.
    mutating func items(_ node: YAMLNode, at origin: Origin, notAList: String = "must be a list") -> [ListItem] {
        if node.isNull { return [] }
        guard case .sequence(let sequence) = node.content else {
            report(origin, notAList)
            return []
        }
        let list = origin.list(line: origin.line)
        return sequence.enumerated().map { index, item in
            ListItem(node: item, origin: list.child(index: index, line: item.line))
        }
    }

    /// A list of strings: each item is any scalar's text as written.
    mutating func strings(_ node: YAMLNode, at origin: Origin) -> [Sourced<String>] {
        var result: [Sourced<String>] = []
        for item in items(node, at: origin, notAList: "must be a list of strings") {
            guard case .scalar(let scalar) = item.node.content, !scalar.isNull else {
                report(item.origin, "must be a string")
                continue
            }
            result.append(Sourced(value: scalar.string, origin: item.origin))
        }
        return result
    }

    /// Reports each string listed a second time (comparing without regard to case when asked) and drops it.
    mutating func withoutRepeats(_ values: [Sourced<String>], ignoringCase: Bool) -> [Sourced<String>] {
        // Most lists hold a few items: comparing each with those kept is cheaper than hashing.
        guard values.count > 16 else {
            var keys: [String] = []
            var kept: [Sourced<String>] = []
            for value in values {
                let key = ignoringCase ? value.value.lowercasedIfNeeded() : value.value
                if let first = keys.firstIndex(of: key) {
                    report(value.origin, "'\(value.value)' is already listed at \(kept[first].origin.reference(from: value.origin))")
                    continue
                }
                keys.append(key)
                kept.append(value)
            }
            return kept
        }
        var seen: [String: Origin] = [:]
        var kept: [Sourced<String>] = []
        for value in values {
            let key = ignoringCase ? value.value.lowercasedIfNeeded() : value.value
            if let first = seen[key] {
                report(value.origin, "'\(value.value)' is already listed at \(first.reference(from: value.origin))")
                continue
            }
            seen[key] = value.origin
            kept.append(value)
        }
        return kept
    }

    /// Any scalar's text as written (`name: 42` is the name "42"); nil for an empty value, or for a list or a
    /// mapping (reported).
    mutating func optionalString(_ node: YAMLNode, at origin: Origin) -> String? {
        guard case .scalar(let scalar) = node.content else {
            report(origin, "must be a string")
            return nil
        }
        return scalar.isNull ? nil : scalar.string
    }

    /// A scalar's non-empty text; nil and `reason` reported otherwise.
    mutating func requiredString(_ node: YAMLNode, at origin: Origin, reason: String = "must be a non-empty string") -> String? {
        guard case .scalar(let scalar) = node.content, !scalar.isNull, !scalar.string.isEmpty else {
            report(origin, reason)
            return nil
        }
        return scalar.string
    }

    /// A GUID, lower-cased. An empty value is nil, reported only when `required`.
    mutating func guid(_ node: YAMLNode, at origin: Origin, required: Bool = false) -> String? {
        if node.isNull && !required { return nil }
        guard case .scalar(let scalar) = node.content, !scalar.isNull, case let text = scalar.string, GUID.isValid(text) else {
            report(origin, "must be a GUID")
            return nil
        }
        return text.lowercasedIfNeeded()
    }

    /// `true` or `false` (and the other spellings Yams' resolver reads as booleans: yes, no, on, off).
    mutating func bool(_ node: YAMLNode, at origin: Origin) -> Bool? {
        if node.isNull { return nil }
        guard case .scalar(let scalar) = node.content, node.resolvedTag == .bool, let value = scalar.plainBool ?? Bool.construct(from: scalar.yams) else {
            report(origin, "must be true or false")
            return nil
        }
        return value
    }

    /// A whole number in `range`; `reason` reported otherwise.
    mutating func integer(_ node: YAMLNode, at origin: Origin, in range: ClosedRange<Int>, reason: String) -> Int? {
        if node.isNull { return nil }
        guard case .scalar(let scalar) = node.content, node.resolvedTag == .int, let value = scalar.plainInt ?? Int.construct(from: scalar.yams),
              range.contains(value) else {
            report(origin, reason)
            return nil
        }
        return value
    }

    /// One of an enumeration's raw values, without regard to case.
    mutating func choice<Choice: RawRepresentable & CaseIterable>(_ node: YAMLNode, at origin: Origin) -> Choice?
    where Choice.RawValue == String {
        if node.isNull { return nil }
        if case .scalar(let scalar) = node.content,
           let value = Choice.allCases.first(where: { $0.rawValue.lowercased() == scalar.string.lowercased() }) {
            return value
        }
        let names = Choice.allCases.map(\.rawValue)
        report(origin, "must be " + (names.count == 2 ? "\(names[0]) or \(names[1])"
                                     : "one of " + names.joined(separator: ", ")))
        return nil
    }

    /// Claims: a mapping of claim names to any YAML value, read as JSON (mapping order kept). Scalars follow
    /// Yams' resolver: unquoted `42` is a number, `true`/`yes`/`on` a boolean, `~`/`null` null; quote a value
    /// to keep it a string. Dates stay strings.
    mutating func claims(_ node: YAMLNode, at origin: Origin) -> ClaimSet {
        if node.isNull { return ClaimSet() }
        guard case .mapping(let mapping) = node.content else {
            report(origin, "must be a mapping of claim names to values")
            return ClaimSet()
        }
        var claims = ClaimSet()
        let container = origin.container(line: origin.line)
        for entry in pairs(of: mapping, at: origin) {
            let here = container.child(key: entry.key, line: entry.value.line)
            guard !entry.key.isEmpty else {
                report(origin.at(line: entry.keyNode.line), "a claim name cannot be empty")
                continue
            }
            if let value = claimValue(entry.value, at: here, depth: 1) { claims[entry.key] = value }
        }
        return claims
    }

    private mutating func claimValue(_ node: YAMLNode, at origin: Origin, depth: Int) -> ClaimValue? {
        guard depth <= ConfigurationSchema.maximumClaimDepth else {
            report(origin, "nests more than \(ConfigurationSchema.maximumClaimDepth) levels deep")
            return nil
        }
        switch node.content {
        case .scalar(let scalar):
            switch node.resolvedTag {
            case .null:
                return .null
            case .bool:
                return (scalar.plainBool ?? Bool.construct(from: scalar.yams)).map { .bool($0) } ?? .string(scalar.string)
            case .int:
                guard let value = scalar.plainInt ?? Int.construct(from: scalar.yams) else {
                    report(origin, "is too large for a 64-bit integer")
                    return nil
                }
                return .int(value)
            case .float:
                guard let value = Double.construct(from: scalar.yams), value.isFinite else {
                    report(origin, "must be a finite number (JSON has no infinity or NaN)")
                    return nil
                }
                return .double(value)
            default:
                return .string(scalar.string)
            }
        case .sequence(let sequence):
            var array: [ClaimValue] = []
            let container = origin.container(line: origin.line)
            for (index, item) in sequence.enumerated() {
                let here = container.child(index: index, line: item.line)
                if let value = claimValue(item, at: here, depth: depth + 1) { array.append(value) }
            }
            return .array(array)
        case .mapping(let mapping):
            var object = ClaimSet()
            let container = origin.container(line: origin.line)
            for entry in pairs(of: mapping, at: origin) {
                let here = container.child(key: entry.key, line: entry.value.line)
                if let value = claimValue(entry.value, at: here, depth: depth + 1) { object[entry.key] = value }
            }
            return .object(object)
        }
    }
}
