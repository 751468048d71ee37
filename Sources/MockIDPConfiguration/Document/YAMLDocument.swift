import Yams

/// A configuration text turned into a node tree (`YAMLTree`), with every way a hostile text could hurt the process
/// ruled out first: size, invalid UTF-8, alias bombs, keys that are aliases or collections (Yams hashes
/// keys deeply to find duplicates, so an aliased collection as a key would make composing exponential),
/// and nesting (libyaml stops at 1000 levels).
///
/// Two readers: a well-formed document (the common case) is composed straight from libyaml's events into
/// the flat tree (`YAMLTree.composeWellFormed`); any other document takes the careful reader below, Yams'
/// composer with the checks and the renaming of duplicates, whose tree is then converted. The fast reader
/// declines every document the careful one would report anything about, so problems read the same either way.
///
/// Duplicate keys: Yams refuses the whole document at the first duplicate, naming only its first
/// occurrence. To report every duplicate where it is, and every other problem too, the reader renames
/// the later occurrences (prefixing `duplicateKeyMarker`) and composes again; the decoder reports keys
/// carrying the marker with their path. Retries are bounded in number and in bytes composed.
///
/// Composing uses Yams' resolver without rules: Yams hashes every key to find duplicates, resolving its
/// tag by regular expressions on the way, which made a file of many keys take minutes. Types are resolved
/// afterwards, only where they matter (`Node.resolvedTag`). A side effect: `1:` and `"1":` count as the
/// same key, which suits a configuration whose keys are names.
struct YAMLDocument {
    /// Larger files are refused unread.
    static let maximumBytes = 8 << 20
    /// How many nodes aliases may add to a document (a billion-laughs document adds 10^9).
    static let maximumAliasExpansion = 1_000_000
    /// How many times the reader renames duplicate keys and composes again before it gives up.
    static let maximumDuplicateKeyPasses = 32
    /// How many bytes the reader composes in all, retries included, before it gives up.
    static let maximumComposedBytes = 2 * maximumBytes
    /// A renamed duplicate key reads `\u{E001}` serial `\u{E002}` key: unique, so that the next compose accepts
    /// it, and recognisable, so that the decoder reports it.
    static let duplicateKeyMarker: Unicode.Scalar = "\u{E001}"
    static let duplicateKeyMarkerEnd: Unicode.Scalar = "\u{E002}"
    /// The key a renamed duplicate stands for, or nil for a key that was not renamed.
    static func originalKey(ofRenamed key: String) -> String? {
        let scalars = key.unicodeScalars
        guard scalars.first == duplicateKeyMarker, let end = scalars.firstIndex(of: duplicateKeyMarkerEnd) else { return nil }
        return String(scalars[scalars.index(after: end)...])
    }

    /// Replaces `*` of aliases in the first, inspecting compose (see `YAMLDocument+Aliases.swift`).
    static let aliasMarker: Unicode.Scalar = "\u{E000}"

    /// The composed document, or nil when it could not be read. It keeps the nodes' tree alive: use nodes only
    /// while the document is held.
    var tree: YAMLTree?
    /// The items of a large `tenants:` list, composed in parts; `tree` then holds an empty list in its place, which
    /// the decoder reads from here (once: it frees each part as it is read).
    var listParts: ListParts?
    /// The document's root, or nil when the document is empty or could not be read.
    var root: YAMLNode? {
        guard let tree, let root = tree.root else { return nil }
        return YAMLNode(tree: tree, index: root)
    }
    /// Duplicate keys renamed before composing: the key and the line of the later occurrence.
    var duplicateKeys: [(key: String, line: Int)] = []
    /// Problems that kept the document from being composed (or from being composed safely).
    var problems: [ConfigurationProblem] = []

    /// Reads file contents: refuses more than `maximumBytes` and text that is not UTF-8.
    static func read(bytes: [UInt8], file: String) -> YAMLDocument {
        guard bytes.count <= maximumBytes else { return tooLarge(file: file) }
        if let offset = firstInvalidUTF8Offset(bytes) {
            let line = bytes[..<offset].reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
            let problem = ConfigurationProblem(file: file, line: line, path: "",
                                               reason: "is not valid UTF-8 text (byte \(offset))")
            return YAMLDocument(problems: [problem])
        }
        let fast = bytes.withUnsafeBufferPointer { buffer in
            // libyaml reads a byte order mark only when it detects the encoding itself; the readers set it.
            let start = buffer.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            return YAMLTree.composeWellFormed(UnsafeBufferPointer(rebasing: buffer[start...]))
        }
        if let fast { return YAMLDocument(tree: fast.tree, listParts: fast.list) }
        return readCarefully(text: String(decoding: bytes, as: UTF8.self), file: file)
    }


    /// Reads a text: refuses more than `maximumBytes` of UTF-8.
    static func read(text: String, file: String) -> YAMLDocument {
        let size = text.utf8.count
        guard size <= maximumBytes else { return tooLarge(file: file) }
        let fast = text.utf8.withContiguousStorageIfAvailable { buffer in
            let start = buffer.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            return YAMLTree.composeWellFormed(UnsafeBufferPointer(rebasing: buffer[start...]))
        }
        if let fast, let fast { return YAMLDocument(tree: fast.tree, listParts: fast.list) }
        return readCarefully(text: text, file: file)
    }

    /// The careful reader: Yams' composer, after the alias inspection, renaming duplicate keys and composing
    /// again until every duplicate is found.
    private static func readCarefully(text: String, file: String) -> YAMLDocument {
        let size = text.utf8.count
        var text = text
        // libyaml reads a byte order mark only when it detects the encoding itself; Yams sets it.
        if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }

        var document = YAMLDocument()
        var passes = 0
        var composedBytes = 0
        var renamedKeys = 0
        // A text that may hold aliases is composed twice (see `compose`); renaming keys adds no `*`.
        let costOfCompose = text.utf8.contains(UInt8(ascii: "*")) ? 2 * size : size
        while true {
            passes += 1
            composedBytes += costOfCompose
            switch compose(text, file: file) {
            case .composed(let root):
                document.tree = root.map { YAMLTree(converting: $0) }
                return document
            case .refused(let problems):
                document.problems += problems
                return document
            case .duplicateKey(let key, let first):
                guard passes < maximumDuplicateKeyPasses, composedBytes + costOfCompose <= maximumComposedBytes,
                      let renamed = renamingLaterOccurrences(of: key, after: first, in: text, serial: &renamedKeys)
                else {
                    document.problems.append(ConfigurationProblem(file: file, line: first.line, path: "",
                                                                  reason: "duplicate key '\(key)'"))
                    return document
                }
                text = renamed.text
                document.duplicateKeys += renamed.lines.map { (key, $0) }
            }
        }
    }

    private enum Outcome {
        case composed(Node?)
        case refused([ConfigurationProblem])
        case duplicateKey(String, first: Mark)
    }

    /// One attempt: the inspecting compose when the text may hold aliases, then the real one.
    private static func compose(_ text: String, file: String) -> Outcome {
        do {
            if text.utf8.contains(UInt8(ascii: "*")) {
                let problems = try inspectAliases(in: text, file: file)
                guard problems.isEmpty else { return .refused(problems) }
            }
            return .composed(try Yams.compose(yaml: text, .basic))
        } catch YamlError.duplicatedKeysInMapping(let duplicates, let context) {
            return .duplicateKey(duplicates.first ?? "", first: context.mark)
        } catch {
            return .refused([problem(from: error, text: text, file: file)])
        }
    }

    /// A document refused for its size.
    static func tooLarge(file: String) -> YAMLDocument {
        YAMLDocument(problems: [ConfigurationProblem(
            file: file, line: 0, path: "", reason: "is larger than \(maximumBytes >> 20) MiB, the most a configuration may hold")])
    }

    /// The offset of the first byte that does not belong to a well-formed UTF-8 sequence (RFC 3629), if any.
    static func firstInvalidUTF8Offset(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer(firstInvalidUTF8Offset)
    }

    private static func firstInvalidUTF8Offset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var i = 0
        while i < bytes.count {
            // ASCII eight bytes at a time: a configuration is nearly all ASCII.
            while i + 8 <= bytes.count, UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                i += 8
            }
            guard i < bytes.count else { break }
            let lead = bytes[i]
            if lead < 0x80 { i += 1; continue }
            let length: Int, minimum: UInt32
            switch lead {
            case 0xC2...0xDF: (length, minimum) = (2, 0x80)
            case 0xE0...0xEF: (length, minimum) = (3, 0x800)
            case 0xF0...0xF4: (length, minimum) = (4, 0x10000)
            default: return i
            }
            guard i + length <= bytes.count else { return i }
            var scalar = UInt32(lead) & (0x7F >> UInt32(length))
            for k in 1..<length {
                let continuation = bytes[i + k]
                guard continuation & 0xC0 == 0x80 else { return i }
                scalar = scalar << 6 | UInt32(continuation & 0x3F)
            }
            guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else { return i }
            i += length
        }
        return nil
    }
}
