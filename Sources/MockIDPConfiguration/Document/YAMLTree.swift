import Yams

/// A composed YAML document held flat: one 16-byte record per node, the children of every collection side by
/// side in one array, and the text of every scalar in one byte buffer. Strings are made only when the decoder
/// asks for them, and an alias is the index of the node it names (nothing is copied), so a large file costs
/// a few bytes per node instead of a tree of objects.
///
/// Immutable once built (`Builder` composes it), so that the tenants of a large file are decoded on several cores
/// reading it without exclusivity checks, and nodes refer to it without reference counting (`YAMLNode`).
// Unchecked: nothing changes a tree once built, and its buffers are freed only with it.
final class YAMLTree: @unchecked Sendable {
    enum Kind: UInt8 { case scalar, sequence, mapping }

    struct Record {
        var kind: Kind
        /// libyaml's scalar style (`Node.Scalar.Style`'s raw value); 0 for collections.
        var style: UInt8
        /// Index into `tags`: 0 implicit, 1 `tag:yaml.org,2002:str`.
        var tag: UInt16
        /// 1-based.
        var line: UInt32
        /// A scalar's first byte in `text`, or a collection's first child in `children`.
        var start: UInt32
        /// A scalar's bytes, or a collection's children (a mapping's keys and values alternate).
        var count: UInt32
    }

    static let implicitTag: UInt16 = 0
    static let stringTag: UInt16 = 1

    // Buffers the tree owns, not arrays: the decoder reads them from several threads at once, and an array read
    // from a class counts a reference to its storage each time (all threads on one counter).
    let records: UnsafeBufferPointer<Record>
    let children: UnsafeBufferPointer<UInt32>
    let text: UnsafeBufferPointer<UInt8>
    let tags: [String]
    /// The root, when the document has one.
    let root: UInt32?

    /// The tree `builder` composed, in buffers of exactly its size.
    init(_ builder: consuming Builder) {
        func owned<Element>(_ array: [Element]) -> UnsafeBufferPointer<Element> {
            let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: array.count)
            _ = buffer.initialize(fromContentsOf: array)
            return UnsafeBufferPointer(buffer)
        }
        records = owned(builder.records)
        children = owned(builder.children)
        text = owned(builder.text)
        tags = builder.tags
        root = builder.root
    }

    deinit {
        records.deallocate()
        children.deallocate()
        text.deallocate()
    }

    func string(_ index: UInt32) -> String {
        Self.string(of: records[Int(index)], in: text)
    }

    static func string(of record: Record, in text: UnsafeBufferPointer<UInt8>) -> String {
        var start = Int(record.start)
        let end = start + Int(record.count)
        // Yams made its strings with Foundation, which drops a byte order mark at the start.
        if end - start >= 3, text[start] == 0xEF, text[start + 1] == 0xBB, text[start + 2] == 0xBF { start += 3 }
        return String(decoding: UnsafeBufferPointer(rebasing: text[start..<end]), as: UTF8.self)
    }

    /// A tree being composed.
    struct Builder {
        var records: [Record] = []
        var children: [UInt32] = []
        var text: [UInt8] = []
        var tags: [String] = [Tag.Name.implicit.rawValue, Tag.Name.str.rawValue]
        var root: UInt32?

        func string(_ index: UInt32) -> String {
            text.withUnsafeBufferPointer { YAMLTree.string(of: records[Int(index)], in: $0) }
        }

        mutating func tagIndex(_ name: String) -> UInt16 {
            if let index = tags.firstIndex(of: name) { return UInt16(index) }
            tags.append(name)
            return UInt16(tags.count - 1)
        }
    }
}

/// One node of a `YAMLTree`.
///
/// A node does not keep its tree alive (it would count references on every copy, from every core decoding): whoever
/// holds the `YAMLDocument` keeps the tree, and nodes are used only while it does.
struct YAMLNode {
    unowned(unsafe) let tree: YAMLTree
    let index: UInt32

    enum Content {
        case scalar(Scalar)
        case sequence(Sequence)
        case mapping(Mapping)
    }

    var record: YAMLTree.Record { tree.records[Int(index)] }

    var content: Content {
        switch record.kind {
        case .scalar: .scalar(Scalar(node: self))
        case .sequence: .sequence(Sequence(node: self))
        case .mapping: .mapping(Mapping(node: self))
        }
    }

    /// The 1-based line the node starts on.
    var line: Int { Int(record.line) }

    /// Whether the node is YAML's null: `~`, `null` or nothing at all, unquoted.
    var isNull: Bool {
        guard record.kind == .scalar else { return false }
        return Scalar(node: self).isNull
    }

    /// The node's tag after resolution by Yams' default rules (`tag:yaml.org,2002:int` for an unquoted `42`).
    /// Only values whose type matters pay for the resolution.
    var resolvedTag: Tag.Name {
        switch content {
        case .scalar(let scalar): scalar.plainTag ?? scalar.explicitTag ?? Resolver.default.resolveTag(of: Node.scalar(scalar.yams))
        case .sequence: .seq
        case .mapping: .map
        }
    }

    /// The number of items when this is a list.
    var sequenceCount: Int? {
        record.kind == .sequence ? Int(record.count) : nil
    }

    struct Scalar {
        let node: YAMLNode

        var string: String { node.tree.string(node.index) }
        var style: Node.Scalar.Style { Node.Scalar.Style(rawValue: UInt32(node.record.style)) ?? .any }
        var tagName: String { node.tree.tags[Int(node.record.tag)] }

        var isNull: Bool {
            let record = node.record
            if record.tag == YAMLTree.stringTag { return false }
            if record.tag != YAMLTree.implicitTag { return tagName == Tag.Name.null.rawValue }
            guard record.style == UInt8(Node.Scalar.Style.plain.rawValue) || record.style == UInt8(Node.Scalar.Style.any.rawValue),
                  record.count <= 4 else { return false }
            switch string {
            case "", "~", "null", "Null", "NULL": return true
            default: return false
            }
        }

        /// The tag Yams' default resolver gives the commonest plain scalars, decided without it: its rules are
        /// regular expressions compiled on first use, which cost start-up more than reading the whole embedded
        /// configuration. A decimal number without a leading zero is `int` (the int rule is tried before float);
        /// YAML 1.1's boolean and null words are `bool` and `null`; any other word that starts with a letter matches
        /// no rule (they all start with a digit, a sign, `.`, `<`, `=` or `~`), so it is `str`. Nil: ask Yams.
        var plainTag: Tag.Name? {
            let record = node.record
            guard record.tag == YAMLTree.implicitTag,
                  record.style == UInt8(Node.Scalar.Style.plain.rawValue) || record.style == UInt8(Node.Scalar.Style.any.rawValue)
            else { return nil }
            let text = string
            guard let first = text.utf8.first else { return nil }
            switch first {
            case UInt8(ascii: "1")...UInt8(ascii: "9"):
                return text.utf8.count <= 18 && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } ? .int : nil
            case UInt8(ascii: "0"):
                return text.utf8.count == 1 ? .int : nil
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                switch text {
                case "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
                     "on", "On", "ON", "off", "Off", "OFF":
                    return .bool
                case "null", "Null", "NULL":
                    return .null
                default:
                    return .str
                }
            default:
                return nil
            }
        }

        /// The tag a quoted or explicitly tagged scalar carries, which Yams' resolver returns as it is (its
        /// `Node.Scalar.resolveTag(using:)`); nil for an implicit tag. Asking `Resolver.default` instead would build
        /// its seven regular expressions with ICU on first use: work on every start, and ICU's pages in RSS.
        var explicitTag: Tag.Name? {
            guard node.record.tag != YAMLTree.implicitTag else { return nil }
            let name = Tag.Name(rawValue: tagName)
            return name == .implicit ? nil : name
        }

        /// The value of a plain decimal `int` (see `plainTag`), without Yams' constructor; nil: ask Yams.
        var plainInt: Int? { plainTag == .int ? Int(string) : nil }

        /// The value of a plain `bool` word (see `plainTag`), as Yams constructs it; nil: ask Yams.
        var plainBool: Bool? {
            guard plainTag == .bool else { return nil }
            switch string {
            case "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON": return true
            default: return false
            }
        }

        /// The same scalar as Yams' node, for Yams' resolver and constructors.
        var yams: Node.Scalar { Node.Scalar(string, Tag(Tag.Name(rawValue: tagName)), style) }
    }

    struct Sequence: RandomAccessCollection {
        let node: YAMLNode
        var startIndex: Int { 0 }
        var endIndex: Int { Int(node.record.count) }
        subscript(position: Int) -> YAMLNode {
            YAMLNode(tree: node.tree, index: node.tree.children[Int(node.record.start) + position])
        }
    }

    /// Key and value pairs, in document order.
    struct Mapping: Swift.Sequence {
        let node: YAMLNode
        var count: Int { Int(node.record.count) / 2 }

        func makeIterator() -> Iterator {
            Iterator(tree: node.tree, position: Int(node.record.start), end: Int(node.record.start + node.record.count))
        }

        struct Iterator: IteratorProtocol {
            unowned(unsafe) let tree: YAMLTree
            var position: Int
            let end: Int
            mutating func next() -> (YAMLNode, YAMLNode)? {
                guard position < end else { return nil }
                defer { position += 2 }
                return (YAMLNode(tree: tree, index: tree.children[position]), YAMLNode(tree: tree, index: tree.children[position + 1]))
            }
        }
    }
}
