import MockIDPText
import Yams

extension YAMLDocument {
    /// Composes a copy of `text` whose aliases are plain scalars (the `*` replaced by `aliasMarker`, which keeps
    /// every line and column), so that composing cannot explode, and measures what the aliases would add.
    /// Problems: an alias or a collection used as a key, and aliases adding more than `maximumAliasExpansion`
    /// nodes. Throws Yams' errors (the real compose would throw the same).
    static func inspectAliases(in text: String, file: String) throws -> [ConfigurationProblem] {
        var neutral = String.UnicodeScalarView()
        let scalars = text.unicodeScalars
        var index = scalars.startIndex
        while index != scalars.endIndex {
            let scalar = scalars[index]
            let next = scalars.index(after: index)
            if scalar == "*", next != scalars.endIndex, isAnchorCharacter(scalars[next]) {
                neutral.append(aliasMarker)
            } else {
                neutral.append(scalar)
            }
            index = next
        }
        // Node.anchor is weak: the parser holds the anchors, so it must outlive the inspection.
        let parser = try Parser(yaml: String(neutral), resolver: .basic)
        guard let root = try parser.singleRoot() else { return [] }
        var inspection = AliasInspection(file: file)
        withExtendedLifetime(parser) { _ = inspection.size(of: root, path: "") }
        return inspection.problems
    }

    /// The characters libyaml allows in anchor names.
    static func isAnchorCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCIILetter || scalar.isASCIIDigit || scalar == "_" || scalar == "-"
    }
}

/// Walks the inspecting compose in document order, sizing every anchored node once, so that each alias
/// costs one dictionary look-up however large its expansion.
private struct AliasInspection {
    let file: String
    var anchorSizes: [String: Int] = [:]
    var added = 0
    var problems: [ConfigurationProblem] = []
    /// Sizes saturate here, far below overflow, far above any limit.
    static let sizeCap = 1 << 40

    mutating func size(of node: Node, path: String) -> Int {
        var size = 1
        switch node {
        case .scalar(let scalar):
            if let name = aliasName(scalar) {
                size = anchorSizes[name] ?? 1
                let wasWithinLimit = added <= YAMLDocument.maximumAliasExpansion
                added = min(added + size - 1, Self.sizeCap)
                if wasWithinLimit && added > YAMLDocument.maximumAliasExpansion {
                    problems.append(ConfigurationProblem(
                        file: file, line: scalar.mark?.line ?? 0, path: path,
                        reason: "aliases expand the document to more than \(YAMLDocument.maximumAliasExpansion) values"))
                }
            }
        case .sequence(let sequence):
            for (index, item) in sequence.enumerated() {
                size = min(size + self.size(of: item, path: DocumentPath.appending(index: index, to: path)), Self.sizeCap)
            }
        case .mapping(let mapping):
            for (key, value) in mapping {
                var valuePath = path
                if case .scalar(let keyScalar) = key {
                    if aliasName(keyScalar) != nil {
                        problems.append(ConfigurationProblem(file: file, line: keyScalar.mark?.line ?? 0, path: path,
                                                             reason: "a key cannot be an alias"))
                    }
                    valuePath = DocumentPath.appending(key: keyScalar.string, to: path)
                } else {
                    problems.append(ConfigurationProblem(file: file, line: key.mark?.line ?? 0, path: path,
                                                         reason: "a key must be a name, not a list or a mapping"))
                }
                size = min(size + self.size(of: key, path: path) + self.size(of: value, path: valuePath), Self.sizeCap)
            }
        case .alias:
            break  // Yams' composer resolves aliases; it never returns alias nodes.
        }
        if let anchor = node.anchor { anchorSizes[anchor.rawValue] = size }
        return size
    }

    /// The anchor an alias (neutralised to a plain scalar) names, or nil for any other scalar.
    private func aliasName(_ scalar: Node.Scalar) -> String? {
        guard scalar.style == .plain, scalar.string.unicodeScalars.first == YAMLDocument.aliasMarker else { return nil }
        let name = scalar.string.unicodeScalars.dropFirst()
        guard !name.isEmpty, name.allSatisfy(YAMLDocument.isAnchorCharacter) else { return nil }
        return String(String.UnicodeScalarView(name))
    }
}
