/// The trees the event reader makes of a text, spelled out node by node (kind, line, style, tag, text), so that
/// tests and the fuzzer can hold the reader that composes a large list in parts to the one that composes it whole.
package enum YAMLTreeInspection {
    /// The tree of `text` composed whole, or nil when the text is not plainly well formed.
    package static func composedWhole(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { bytes in
            guard !YAMLTree.containsMarker(bytes) else { return nil }
            var composer = EventComposer()
            guard composer.compose(bytes) else { return nil }
            return spelled(YAMLTree(composer.tree))
        }
    }

    /// The tree of `text` composed in `parts` parts, or nil when the text is not cut (see `YAMLTree.composeInParts`).
    package static func composedInParts(_ text: String, parts: Int) -> String? {
        var text = text
        return text.withUTF8 { bytes in
            guard !YAMLTree.containsMarker(bytes) else { return nil }
            return YAMLTree.composeInParts(bytes, minimumBytes: 0, parts: parts).map { spelled(YAMLTree.joined($0.tree, $0.list)) }
        }
    }

    private static func spelled(_ tree: YAMLTree) -> String {
        var out = ""
        func spell(_ index: UInt32, depth: Int) {
            let record = tree.records[Int(index)]
            out += String(repeating: " ", count: depth)
            switch record.kind {
            case .scalar:
                out += "scalar line \(record.line) style \(record.style) tag \(tree.tags[Int(record.tag)]) \(String(reflecting: tree.string(index)))\n"
            case .sequence, .mapping:
                out += "\(record.kind) line \(record.line) items \(record.count)\n"
                for position in 0..<Int(record.count) { spell(tree.children[Int(record.start) + position], depth: depth + 1) }
            }
        }
        if let root = tree.root { spell(root, depth: 0) }
        return out
    }
}
