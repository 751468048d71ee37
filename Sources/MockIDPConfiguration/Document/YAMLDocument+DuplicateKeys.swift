import Yams

extension YAMLDocument {
    /// `text` with the occurrences of `key` that follow `first` (where Yams found it first) in the same mapping
    /// renamed (see `duplicateKeyMarker`), and their lines; nil when none can be found for sure.
    ///
    /// Keys of one block mapping (or of a JSON object laid out a key per line) start in the same column,
    /// so later occurrences are the lines whose first character sits in that column and spells the key,
    /// up to the first line that starts further left (the mapping has ended there). A flow mapping on one
    /// line is searched after the first occurrence, key by key.
    static func renamingLaterOccurrences(of key: String, after first: Mark, in text: String,
                                         serial: inout Int) -> (text: String, lines: [Int])? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let firstLine = first.line - 1, column = first.column - 1
        guard !key.isEmpty, lines.indices.contains(firstLine), column >= 0 else { return nil }
        let spellings = keySpellings(key)
        var renamedLines: [Int] = []

        func rename(line: Int, at positions: [Int], _ scalars: [Unicode.Scalar]) {
            var edited = scalars
            for position in positions.reversed() {
                serial += 1
                edited.insert(contentsOf: [duplicateKeyMarker] + String(serial).unicodeScalars + [duplicateKeyMarkerEnd], at: position)
            }
            lines[line] = Substring(String(String.UnicodeScalarView(edited)))
            renamedLines.append(line + 1)
        }

        let sameLine = Array(lines[firstLine].unicodeScalars)
        let positions = laterKeysInFlowMapping(sameLine, after: column, spellings: spellings)
        if !positions.isEmpty { rename(line: firstLine, at: positions, sameLine) }

        for line in (firstLine + 1)..<lines.count {
            let scalars = Array(lines[line].unicodeScalars)
            guard let indent = scalars.firstIndex(where: { $0 != " " && $0 != "\r" }), scalars[indent] != "#" else {
                continue  // blank or comment line
            }
            if indent < column { break }
            if indent == column, let start = keyStart(in: scalars, at: column, spellings: spellings) {
                rename(line: line, at: [start], scalars)
            }
        }
        return renamedLines.isEmpty ? nil : (lines.joined(separator: "\n"), renamedLines)
    }

    /// Where the key occurs again on the line of its first occurrence (at `column`), in the same flow mapping:
    /// at nesting depth 0, after `{` or `,`, outside quoted text and comments.
    private static func laterKeysInFlowMapping(_ line: [Unicode.Scalar], after column: Int,
                                               spellings: [(scalars: [Unicode.Scalar], quoted: Bool)]) -> [Int] {
        var positions: [Int] = []
        var depth = 0
        var index = column
        while index < line.count {
            if index > column, depth == 0,
               previousNonSpace(in: line, before: index).map({ $0 == "{" || $0 == "," }) == true,
               let start = keyStart(in: line, at: index, spellings: spellings) {
                positions.append(start)
            }
            switch line[index] {
            case "\"":
                index += 1
                while index < line.count && line[index] != "\"" { index += line[index] == "\\" ? 2 : 1 }
            case "'":
                index += 1
                while index < line.count {
                    if line[index] == "'" {
                        guard index + 1 < line.count, line[index + 1] == "'" else { break }
                        index += 1
                    }
                    index += 1
                }
            case "{", "[":
                depth += 1
            case "}", "]":
                depth -= 1
                if depth < 0 { return positions }
            case "#" where index > 0 && line[index - 1] == " ":
                return positions
            default:
                break
            }
            index += 1
        }
        return positions
    }

    /// The key as plain, double-quoted and single-quoted text, and whether it is quoted.
    private static func keySpellings(_ key: String) -> [(scalars: [Unicode.Scalar], quoted: Bool)] {
        var spellings: [([Unicode.Scalar], Bool)] = [(Array(key.unicodeScalars), false)]
        if !key.contains("\"") && !key.contains("\\") { spellings.append((Array(("\"" + key + "\"").unicodeScalars), true)) }
        if !key.contains("'") { spellings.append((Array(("'" + key + "'").unicodeScalars), true)) }
        return spellings
    }

    /// Where to insert the marker when `scalars` holds the key at `position` followed by `:`, else nil.
    private static func keyStart(in scalars: [Unicode.Scalar], at position: Int,
                                 spellings: [(scalars: [Unicode.Scalar], quoted: Bool)]) -> Int? {
        for spelling in spellings {
            let end = position + spelling.scalars.count
            guard end <= scalars.count, Array(scalars[position..<end]) == spelling.scalars else { continue }
            var colon = end
            while colon < scalars.count && scalars[colon] == " " { colon += 1 }
            guard colon < scalars.count, scalars[colon] == ":" else { continue }
            let after = colon + 1 < scalars.count ? scalars[colon + 1] : " "
            // A plain key's `:` must be followed by a space (else it is part of the text, as in `http://`).
            guard spelling.quoted || [" ", "\r", "\t", ",", "}"].contains(after) else { continue }
            return spelling.quoted ? position + 1 : position
        }
        return nil
    }

    private static func previousNonSpace(in scalars: [Unicode.Scalar], before position: Int) -> Unicode.Scalar? {
        var index = position - 1
        while index >= 0 && scalars[index] == " " { index -= 1 }
        return index >= 0 ? scalars[index] : nil
    }
}
