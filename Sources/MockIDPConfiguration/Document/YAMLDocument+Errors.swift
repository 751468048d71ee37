import Yams

extension YAMLDocument {
    /// A problem, with its line, for an error Yams threw while reading `text`.
    static func problem(from error: any Error, text: String, file: String) -> ConfigurationProblem {
        guard let error = error as? YamlError else {
            return ConfigurationProblem(file: file, line: 0, path: "", reason: "cannot be read as YAML: \(error)")
        }
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _):
            return ConfigurationProblem(file: file, line: mark.line, path: "",
                                        reason: syntaxReason(problem, context: context, mark: mark, text: text))
        case .composer(let context, let problem, let mark, _):
            if problem == "but found another document" {
                return ConfigurationProblem(file: file, line: mark.line, path: "",
                                            reason: "a configuration file holds one YAML document; this is a second one")
            }
            if problem == "found undefined alias" {
                let name = String(String.UnicodeScalarView(scalars(from: mark, in: text).dropFirst().prefix(while: isAnchorCharacter)))
                return ConfigurationProblem(file: file, line: mark.line, path: "",
                                            reason: "invalid YAML: the alias '*\(name)' names no anchor (&\(name)) before it")
            }
            return ConfigurationProblem(file: file, line: mark.line, path: "",
                                        reason: syntaxReason(problem, context: context, mark: mark, text: text))
        case .reader(let problem, let offset, _, _):
            // Yams counts the offset in characters.
            let line = offset.map { text.prefix($0).reduce(1) { $1.isNewline ? $0 + 1 : $0 } } ?? 0
            return ConfigurationProblem(file: file, line: line, path: "", reason: "invalid text: \(problem)")
        case .memory:
            return ConfigurationProblem(file: file, line: 0, path: "", reason: "ran out of memory reading the YAML")
        default:
            return ConfigurationProblem(file: file, line: 0, path: "", reason: "invalid YAML: \(error)")
        }
    }

    private static func syntaxReason(_ problem: String, context: YamlError.Context?, mark: Mark, text: String) -> String {
        if problem.hasPrefix("Maximum nesting level reached") {
            return "invalid YAML: nested more than 1000 levels deep"
        }
        var reason = "invalid YAML: " + problem
        if let context, context.mark.line != mark.line || context.mark.column != mark.column {
            reason += " (\(context.text), line \(context.mark.line))"
        }
        if scalars(from: mark, in: text).first == "\t" { reason += "; indent with spaces, not tabs" }
        return reason
    }

    /// The text from a 1-based line and column to the end of that line, counted as libyaml counts (Unicode scalars).
    private static func scalars(from mark: Mark, in text: String) -> Substring.UnicodeScalarView {
        let all = text.unicodeScalars
        var lineStart = all.startIndex
        var line = 1
        var index = all.startIndex
        while line < mark.line, index != all.endIndex {
            if all[index] == "\n" {
                line += 1
                lineStart = all.index(after: index)
            }
            index = all.index(after: index)
        }
        guard line == mark.line else { return Substring().unicodeScalars }
        let lineText = all[lineStart...].prefix { $0 != "\n" }
        let start = lineText.index(lineText.startIndex, offsetBy: max(mark.column - 1, 0), limitedBy: lineText.endIndex) ?? lineText.endIndex
        return lineText[start...]
    }
}
