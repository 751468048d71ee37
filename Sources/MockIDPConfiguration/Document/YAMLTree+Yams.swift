import Yams

extension YAMLTree {
    /// The tree of a document Yams composed (the careful reader's), node for node: an alias, which Yams
    /// resolved to the node it names, becomes a copy of that node.
    convenience init(converting root: Node) {
        var builder = Builder()
        builder.root = builder.add(root)
        self.init(builder)
    }
}

extension YAMLTree.Builder {
    fileprivate mutating func add(_ node: Node) -> UInt32 {
        let index = UInt32(records.count)
        let line = UInt32(max(node.mark?.line ?? 0, 0))
        switch node {
        case .scalar(let scalar):
            let bytes = Array(scalar.string.utf8)
            records.append(YAMLTree.Record(kind: .scalar, style: UInt8(truncatingIfNeeded: scalar.style.rawValue),
                                  tag: tagIndex(scalar.tag.description), line: line,
                                  start: UInt32(text.count), count: UInt32(bytes.count)))
            text.append(contentsOf: bytes)
        case .sequence(let sequence):
            records.append(YAMLTree.Record(kind: .sequence, style: 0, tag: YAMLTree.implicitTag, line: line, start: 0, count: 0))
            var items: [UInt32] = []
            for item in sequence { items.append(add(item)) }
            records[Int(index)].start = UInt32(children.count)
            records[Int(index)].count = UInt32(items.count)
            children.append(contentsOf: items)
        case .mapping(let mapping):
            records.append(YAMLTree.Record(kind: .mapping, style: 0, tag: YAMLTree.implicitTag, line: line, start: 0, count: 0))
            var items: [UInt32] = []
            for (key, value) in mapping {
                items.append(add(key))
                items.append(add(value))
            }
            records[Int(index)].start = UInt32(children.count)
            records[Int(index)].count = UInt32(items.count)
            children.append(contentsOf: items)
        case .alias:
            // Yams' composer resolves aliases; it never returns alias nodes.
            records.append(YAMLTree.Record(kind: .scalar, style: 0, tag: YAMLTree.implicitTag, line: line, start: 0, count: 0))
        }
        return index
    }
}
