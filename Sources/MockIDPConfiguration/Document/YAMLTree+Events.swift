import CLibYAML
#if canImport(Glibc)
import Glibc
#endif

extension YAMLTree {
    /// Composes `bytes` (UTF-8, without a byte order mark) from libyaml's event stream into a tree, or returns nil
    /// when the document is anything but plainly well formed: a syntax error, a second document, an undefined
    /// alias, an alias or a collection as a key, a key spelled twice in one mapping, an explicit tag, nesting
    /// deeper than `maximumDepth`, aliases adding more than `YAMLDocument.maximumAliasExpansion` values, or the
    /// private-use characters the careful reader uses as markers. Such documents take the careful reader (Yams'
    /// composer with its checks), which reports exactly what is wrong; a document this reader accepts, the
    /// careful reader accepts too and composes to the same tree.
    ///
    /// A large text's `tenants:` list may come back in parts (`composeInParts`), beside a tree that holds an empty
    /// list in its place.
    static func composeWellFormed(_ bytes: UnsafeBufferPointer<UInt8>) -> (tree: YAMLTree, list: ListParts?)? {
        if containsMarker(bytes) { return nil }
        if let composed = composeInParts(bytes) { return composed }
        var composer = EventComposer()
        guard composer.compose(bytes) else { return nil }
        return (YAMLTree(composer.tree), nil)
    }

    /// Below libyaml's own limit (1000) in Yams' copy, so that the careful reader reports it.
    static let maximumDepth = 500

    /// Whether the text holds U+E000, U+E001 or U+E002 (bytes EE 80 80...82).
    static func containsMarker(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var index = 0
        let count = bytes.count
        while index + 2 < count, let found = memchr(base + index, 0xEE, count - index - 2) {
            index = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
            if bytes[index + 1] == 0x80, bytes[index + 2] <= 0x82 { return true }
            index += 1
        }
        return false
    }
}

/// The state of one compose: the open collections and the children they have so far.
struct EventComposer {
    var tree = YAMLTree.Builder()
    /// How deep the text composed lies in its document (1 for an item list of a top-level key, composed apart).
    var baseDepth = 0
    /// Refuse anchors and aliases (a part composed apart cannot see the rest of the document's).
    var refusesAnchors = false
    /// Whether the root is a block mapping (not a `{…}` one).
    private(set) var rootIsBlockMapping = false

    struct Open {
        var index: UInt32
        var isMapping: Bool
        var anchor: String?
        /// Where its children start in `pending`.
        var firstPending: Int
        /// The node and every value aliases add to it, as the careful reader counts them.
        var size: Int
    }

    var open: [Open] = []
    var pending: [UInt32] = []
    var anchors: [String: (index: UInt32, size: Int)] = [:]
    var added = 0
    var documents = 0

    mutating func compose(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return false }
        defer { yaml_parser_delete(&parser) }
        yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input_string(&parser, bytes.baseAddress, bytes.count)
        tree.records.reserveCapacity(bytes.count / 12)
        tree.children.reserveCapacity(bytes.count / 12)
        tree.text.reserveCapacity(bytes.count / 2)

        var event = yaml_event_t()
        while true {
            guard yaml_parser_parse(&parser, &event) == 1 else { return false }
            defer { yaml_event_delete(&event) }
            switch event.type {
            case YAML_STREAM_END_EVENT:
                return true
            case YAML_DOCUMENT_START_EVENT:
                documents += 1
                if documents > 1 { return false }
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                guard scalar.tag == nil, !refusesAnchors || scalar.anchor == nil else { return false }
                let index = UInt32(tree.records.count)
                tree.records.append(YAMLTree.Record(
                    kind: .scalar, style: UInt8(truncatingIfNeeded: scalar.style.rawValue),
                    tag: scalar.quoted_implicit != 0 ? YAMLTree.stringTag : YAMLTree.implicitTag,
                    line: UInt32(event.start_mark.line + 1), start: UInt32(tree.text.count), count: UInt32(scalar.length)))
                if scalar.length > 0 { tree.text.append(contentsOf: UnsafeBufferPointer(start: scalar.value, count: scalar.length)) }
                guard add(index, size: 1, isCollection: false) else { return false }
                if let anchor = scalar.anchor { anchors[String(cString: anchor)] = (index, 1) }
            case YAML_ALIAS_EVENT:
                guard !refusesAnchors, let name = event.data.alias.anchor, let target = anchors[String(cString: name)],
                      !isKeyPosition else { return false }
                added += target.size - 1
                guard added <= YAMLDocument.maximumAliasExpansion else { return false }
                guard add(target.index, size: target.size, isCollection: false) else { return false }
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                let isMapping = event.type == YAML_MAPPING_START_EVENT
                let tag = isMapping ? event.data.mapping_start.tag : event.data.sequence_start.tag
                let implicit = isMapping ? event.data.mapping_start.implicit : event.data.sequence_start.implicit
                let anchor = isMapping ? event.data.mapping_start.anchor : event.data.sequence_start.anchor
                guard tag == nil || implicit != 0, !isKeyPosition, baseDepth + open.count < YAMLTree.maximumDepth,
                      !refusesAnchors || anchor == nil else { return false }
                if open.isEmpty && tree.root == nil {
                    rootIsBlockMapping = isMapping && event.data.mapping_start.style == YAML_BLOCK_MAPPING_STYLE
                }
                let index = UInt32(tree.records.count)
                tree.records.append(YAMLTree.Record(kind: isMapping ? .mapping : .sequence, style: 0, tag: YAMLTree.implicitTag,
                                                    line: UInt32(event.start_mark.line + 1), start: 0, count: 0))
                open.append(Open(index: index, isMapping: isMapping, anchor: anchor.map { String(cString: $0) },
                                 firstPending: pending.count, size: 1))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard let closed = open.popLast() else { return false }
                let count = pending.count - closed.firstPending
                if closed.isMapping && !keysAreUnique(from: closed.firstPending) { return false }
                tree.records[Int(closed.index)].start = UInt32(tree.children.count)
                tree.records[Int(closed.index)].count = UInt32(count)
                tree.children.append(contentsOf: pending[closed.firstPending...])
                // No slice of `pending` may live here: removing would copy the whole array.
                pending.removeLast(count)
                guard add(closed.index, size: closed.size, isCollection: true) else { return false }
                if let anchor = closed.anchor { anchors[anchor] = (closed.index, closed.size) }
            default:
                break  // stream start, document end
            }
        }
    }

    /// Whether the next node would be a key of the innermost open mapping.
    private var isKeyPosition: Bool {
        guard let innermost = open.last, innermost.isMapping else { return false }
        return (pending.count - innermost.firstPending) % 2 == 0
    }

    /// Adds a finished node to the collection it belongs to (or makes it the root).
    private mutating func add(_ index: UInt32, size: Int, isCollection: Bool) -> Bool {
        guard !open.isEmpty else {
            guard tree.root == nil else { return false }
            tree.root = index
            return true
        }
        if isKeyPosition {
            // Yams resolves the tag of every key (without rules) when it looks for duplicates, and keeps it.
            if tree.records[Int(index)].tag == YAMLTree.implicitTag { tree.records[Int(index)].tag = YAMLTree.stringTag }
        }
        pending.append(index)
        open[open.count - 1].size = min(open[open.count - 1].size + size, 1 << 40)
        return true
    }

    /// Whether no key of a mapping's children (keys and values alternating) is spelled twice.
    private func keysAreUnique(from first: Int) -> Bool {
        let keys = stride(from: first, to: pending.count, by: 2).map { pending[$0] }
        if keys.count < 2 { return true }
        if keys.count <= 24 {
            for i in 1..<keys.count {
                for j in 0..<i where sameText(keys[i], keys[j]) { return false }
            }
            return true
        }
        var seen = Set<String>()
        for key in keys where !seen.insert(tree.string(key)).inserted { return false }
        return true
    }

    private func sameText(_ a: UInt32, _ b: UInt32) -> Bool {
        let ra = tree.records[Int(a)], rb = tree.records[Int(b)]
        guard ra.count == rb.count else { return false }
        return tree.text.withUnsafeBufferPointer { text in
            var a = Int(ra.start), b = Int(rb.start)
            let end = a + Int(ra.count)
            while a < end {
                if text[a] != text[b] { return false }
                a += 1
                b += 1
            }
            return true
        }
    }
}
