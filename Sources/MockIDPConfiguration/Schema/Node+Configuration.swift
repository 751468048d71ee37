import Yams

extension Node {
    /// The 1-based line the node starts on (0 when unknown).
    var line: Int { mark?.line ?? 0 }

    /// Whether the node is YAML's null: `~`, `null` or nothing at all, unquoted.
    var isNull: Bool {
        guard case .scalar(let scalar) = self else { return false }
        return scalar.isNull
    }

    /// The node's tag after resolution by Yams' default rules (`tag:yaml.org,2002:int` for an unquoted `42`).
    /// Documents are composed without rules (see `YAMLDocument`), so only values whose type matters pay
    /// for the resolution. Not for keys: Yams resolved theirs, without rules, when it hashed them.
    var resolvedTag: Tag.Name { Resolver.default.resolveTag(of: self) }

    /// The number of items when this is a list.
    var sequenceCount: Int? {
        if case .sequence(let sequence) = self { sequence.count } else { nil }
    }
}

extension Node.Scalar {
    var isNull: Bool {
        if tag.rawValue == Tag.Name.null.rawValue { return true }
        guard tag.rawValue == Tag.Name.implicit.rawValue, style == .plain || style == .any else { return false }
        switch string {
        case "", "~", "null", "Null", "NULL": return true
        default: return false
        }
    }
}
