import CLibYAML
#if canImport(Glibc)
import Glibc
#endif

/// A large configuration is nearly all one list: the items of its top-level `tenants:` key. libyaml reads a text on
/// one core only, so such a list is cut into parts at item boundaries and the parts are composed on several
/// cores at once. The parts' items, read in order, are the items one compose of the whole text gives, with the same
/// lines (`joined` makes that one tree, for the tests that hold the two to each other); the decoder reads the parts
/// as they are and frees each once read (`ListParts`).
///
/// A cut is made only where the text's lines alone show it is safe, and the composes confirm it:
///
/// - the key is written `tenants:` at the start of a line, with nothing after it but a comment, and the root of
///   the rest of the document (composed apart, the list left out) is a block mapping that holds it with an empty
///   value: so where the list starts, the reader is in the root mapping, after that key;
/// - the list's items start at one indentation greater than zero (`  - `), and the list ends at a line that starts
///   at the first column with anything but `-` (another key, `...`), or at the end of the text;
/// - every line in between is blank, a comment, more indented than the items, or the start of an item; no line
///   starts with a tab, and the text holds no line break but `\n` (so that lines count the same);
/// - each part, composed on its own, is one block list without anchors or aliases that ends at the end of its
///   text. A quoted scalar or a `[…]` left open at a cut makes its part fail, and the text is composed whole.
///
/// Within a block list, a line at the items' indentation that starts with `- ` ends whatever the item before it
/// holds (a plain or block scalar, a nested collection) and starts the next item; so each part composes to what the
/// whole text's compose makes of those lines.
extension YAMLTree {
    /// Texts smaller than this are composed whole: a cut pays for itself only on large ones.
    static let minimumBytesForParts = 1 << 20

    /// A large well-formed text composed in parts: the rest of the document, whose `tenants:` value is an empty
    /// list standing in for the parts' items, and the parts. Nil to compose the text whole: it is too small, cannot
    /// be cut safely, or is not plainly well formed (the whole compose then says so).
    static func composeInParts(_ bytes: UnsafeBufferPointer<UInt8>, minimumBytes: Int = minimumBytesForParts,
                               parts: Int = 4 * Parallel.cores) -> (tree: YAMLTree, list: ListParts)? {
        guard bytes.count >= minimumBytes, parts > 1, let layout = ListLayout(bytes, parts: parts) else { return nil }
        // The rest of the document: the text before the list and after it, joined.
        var restText = Array(bytes[..<layout.listStart])
        restText.append(contentsOf: bytes[layout.listEnd...])
        let cuts = layout.cuts + [layout.listEnd]
        // Each part becomes a tree as soon as it is composed, which frees what its builder reserved.
        let composed = Parallel.map(cuts.count - 1, minimumChunk: 1) { range -> (rest: Builder?, parts: [YAMLTree])? in
            var rest: Builder?
            if range.lowerBound == 0 {
                var composer = EventComposer()
                guard restText.withUnsafeBufferPointer({ composer.compose($0) }), composer.rootIsBlockMapping else { return nil }
                rest = composer.tree
            }
            var parts: [YAMLTree] = []
            for part in range {
                var composer = EventComposer()
                composer.baseDepth = 1
                composer.refusesAnchors = true
                guard composer.compose(UnsafeBufferPointer(rebasing: bytes[cuts[part]..<cuts[part + 1]])),
                      let root = composer.tree.root, composer.tree.records[Int(root)].kind == .sequence,
                      composer.tree.tags.count == 2 else { return nil }
                // Lines as the whole text counts them.
                let linesBefore = UInt32(layout.linesBeforeCuts[part])
                for index in composer.tree.records.indices { composer.tree.records[index].line += linesBefore }
                parts.append(YAMLTree(composer.tree))
            }
            return (rest, parts)
        }
        var restTree: Builder?
        var trees: [YAMLTree] = []
        for result in composed {
            guard let result else { return nil }
            if let rest = result.rest { restTree = rest }
            trees += result.parts
        }
        guard var restTree else { return nil }
        guard let root = restTree.root, restTree.records[Int(root)].kind == .mapping, restTree.tags.count == 2,
              let value = listValue(in: restTree, root: root, keyLine: layout.keyLine) else { return nil }
        // Lines of the rest after the list's place move down by the list's lines.
        let listLine = UInt32(layout.linesBeforeList + 1)
        let moved = UInt32(layout.linesBeforeListEnd - layout.linesBeforeList)
        for index in restTree.records.indices where restTree.records[index].line >= listLine {
            restTree.records[index].line += moved
        }
        restTree.records[Int(value)] = Record(kind: .sequence, style: 0, tag: YAMLTree.implicitTag, line: listLine, start: 0, count: 0)
        let tree = YAMLTree(restTree)
        return (tree, ListParts(standingIn: YAMLNode(tree: tree, index: value), parts: trees))
    }

    /// The value of the root mapping's `tenants` key on `keyLine` when it is empty (the list left out), else nil.
    private static func listValue(in rest: Builder, root: UInt32, keyLine: Int) -> UInt32? {
        let mapping = rest.records[Int(root)]
        let plain = UInt8(truncatingIfNeeded: YAML_PLAIN_SCALAR_STYLE.rawValue)
        for pair in stride(from: Int(mapping.start), to: Int(mapping.start + mapping.count), by: 2) {
            let key = rest.records[Int(rest.children[pair])]
            guard key.kind == .scalar, key.line == keyLine, key.style == plain, rest.string(rest.children[pair]) == "tenants"
            else { continue }
            let index = rest.children[pair + 1]
            let value = rest.records[Int(index)]
            return value.kind == .scalar && value.count == 0 && value.style == plain && value.tag == YAMLTree.implicitTag ? index : nil
        }
        return nil
    }

    /// The tree one compose of the whole text gives: `tree`'s stand-in list replaced by the parts' items. For
    /// tests and the fuzzer, which hold the two readers to each other; the decoder reads the parts as they are.
    static func joined(_ tree: YAMLTree, _ list: ListParts) -> YAMLTree {
        var joined = Builder()
        append(tree, to: &joined)
        var items: [UInt32] = []
        for part in 0..<list.count {
            let partTree = list.tree(part)
            let base = UInt32(joined.records.count)
            let root = partTree.records[Int(partTree.root!)]
            for position in 0..<Int(root.count) { items.append(base + partTree.children[Int(root.start) + position]) }
            append(partTree, to: &joined)
        }
        joined.records[Int(list.placeholder)].start = UInt32(joined.children.count)
        joined.records[Int(list.placeholder)].count = UInt32(items.count)
        joined.children += items
        joined.root = tree.root
        return YAMLTree(joined)
    }

    /// Appends `part`'s records, children and text to `tree`, its indices moved past what `tree` holds.
    private static func append(_ part: YAMLTree, to tree: inout Builder) {
        let recordBase = UInt32(tree.records.count), childBase = UInt32(tree.children.count), textBase = UInt32(tree.text.count)
        for var record in part.records {
            record.start += record.kind == .scalar ? textBase : childBase
            tree.records.append(record)
        }
        for child in part.children { tree.children.append(child + recordBase) }
        tree.text += part.text
    }
}

/// The items of a document's `tenants:` list composed in parts (`YAMLTree.composeInParts`), each part a tree whose
/// root is a list of items. The decoder reads them part by part and frees each part once its items are read, so that
/// a large file's tree is not held whole beside everything decoded from it.
final class ListParts: @unchecked Sendable {  // Unchecked: each part is taken by one reader, once.
    /// The stand-in list in the document's tree.
    let placeholder: UInt32
    private let document: ObjectIdentifier
    private let trees: Parallel.Slots<YAMLTree>
    /// Per part: the list index of its first item.
    let firstItems: [Int]
    /// The items in all parts.
    let itemCount: Int

    init(standingIn placeholder: YAMLNode, parts: [YAMLTree]) {
        self.placeholder = placeholder.index
        document = ObjectIdentifier(placeholder.tree)
        trees = Parallel.Slots(count: parts.count)
        var first = 0, firstItems: [Int] = []
        for (index, part) in parts.enumerated() {
            trees[index] = part
            firstItems.append(first)
            first += Int(part.records[Int(part.root!)].count)
        }
        self.firstItems = firstItems
        itemCount = first
    }

    var count: Int { firstItems.count }

    /// Whether `node` is the stand-in list, whose items these parts hold.
    func isStandIn(_ node: YAMLNode) -> Bool {
        node.index == placeholder && ObjectIdentifier(node.tree) == document
    }

    /// Part `index`'s tree, still held here.
    func tree(_ index: Int) -> YAMLTree { trees[index]! }

    /// Part `index`'s tree, no longer held here: it is freed with the caller's last reference.
    func take(_ index: Int) -> YAMLTree? { trees.take(at: index) }
}

/// Where a text's `tenants:` list is and where it may be cut (see `YAMLTree.composeInParts`).
struct ListLayout {
    /// The 1-based line of `tenants:`.
    var keyLine = 0
    /// The offset of the list's first item, and the `\n`s before it.
    var listStart = 0
    var linesBeforeList = 0
    /// The offset just past the list, and the `\n`s before it.
    var listEnd = 0
    var linesBeforeListEnd = 0
    /// Where each part starts (the first is `listStart`), and the `\n`s before each.
    var cuts: [Int] = []
    var linesBeforeCuts: [Int] = []

    init?(_ bytes: UnsafeBufferPointer<UInt8>, parts: Int) {
        guard let base = bytes.baseAddress, !Self.holdsOtherLineBreaks(bytes) else { return nil }
        let count = bytes.count
        // Every item's start, and the `\n`s before it.
        var items: [(offset: Int, lines: Int)] = []
        var indentation = -1  // the items' indentation, once the first is found
        var offset = 0, lines = 0
        scan: while offset < count {
            let lineEnd = memchr(base + offset, Int32(UInt8(ascii: "\n")), count - offset)
                .map { UnsafePointer<UInt8>($0.assumingMemoryBound(to: UInt8.self)) - base } ?? count
            var first = offset
            while first < lineEnd && bytes[first] == UInt8(ascii: " ") { first += 1 }
            let blank = first == lineEnd || bytes[first] == UInt8(ascii: "#")
            if first < lineEnd && bytes[first] == UInt8(ascii: "\t") { return nil }
            let column = first - offset
            if keyLine == 0 {
                if column == 0 && Self.isListKey(bytes, from: offset, to: lineEnd) { keyLine = lines + 1 }
            } else if !blank {
                let isItem = bytes[first] == UInt8(ascii: "-") && (first + 1 == lineEnd || bytes[first + 1] == UInt8(ascii: " "))
                if indentation < 0 {
                    guard column > 0, isItem else { return nil }
                    indentation = column
                    items.append((offset, lines))
                } else if column == indentation {
                    guard isItem else { return nil }
                    items.append((offset, lines))
                } else if column < indentation {
                    guard column == 0, bytes[first] != UInt8(ascii: "-") else { return nil }
                    listEnd = offset
                    linesBeforeListEnd = lines
                    break scan
                }
            }
            offset = lineEnd + 1
            lines += 1
        }
        guard items.count >= 2 else { return nil }
        if listEnd == 0 {
            listEnd = count
            linesBeforeListEnd = lines
        }
        listStart = items[0].offset
        linesBeforeList = items[0].lines
        // Cut at the first item at or after each equal share of the list's bytes.
        var next = 0
        for part in 0..<parts {
            let target = listStart + (listEnd - listStart) * part / parts
            while next < items.count && items[next].offset < target { next += 1 }
            guard next < items.count, cuts.last.map({ $0 < items[next].offset }) ?? true else { continue }
            cuts.append(items[next].offset)
            linesBeforeCuts.append(items[next].lines)
        }
        guard cuts.count > 1 else { return nil }
    }

    /// Whether the line is `tenants:`, then nothing but spaces and a comment.
    private static func isListKey(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Bool {
        let key = "tenants:".utf8
        guard end - start >= key.count, zip(bytes[start...], key).allSatisfy({ $0 == $1 }) else { return false }
        var index = start + key.count
        if index == end { return true }
        guard bytes[index] == UInt8(ascii: " ") else { return false }
        while index < end && bytes[index] == UInt8(ascii: " ") { index += 1 }
        return index == end || bytes[index] == UInt8(ascii: "#")
    }

    /// Whether the text holds a line break libyaml counts other than `\n`: `\r`, NEL, LS or PS.
    private static func holdsOtherLineBreaks(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        if memchr(base, Int32(UInt8(ascii: "\r")), bytes.count) != nil { return true }
        for lead: UInt8 in [0xC2, 0xE2] {
            var offset = 0
            while offset < bytes.count, let found = memchr(base + offset, Int32(lead), bytes.count - offset) {
                let index = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
                if lead == 0xC2 && index + 1 < bytes.count && bytes[index + 1] == 0x85 { return true }
                if lead == 0xE2 && index + 2 < bytes.count && bytes[index + 1] == 0x80
                    && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9) { return true }
                offset = index + 1
            }
        }
        return false
    }
}
