import MockIDPText
import Yams

/// How the writer spells a string: plain when YAML reads it back as that same string, double-quoted otherwise.
enum YAMLScalar {
    /// Where the scalar goes: flow collections (`[a, b]`) forbid more characters in plain text.
    enum Context { case block, flow }

    static func text(_ value: String, in context: Context = .block) -> String {
        isPlainSafe(value, in: context) ? value : doubleQuoted(value)
    }

    /// Conservative: a plain scalar that cannot start an indicator, hide a comment or a mapping, or resolve
    /// to anything but a string (`true`, `42`, `~`, `2024-01-01`) under Yams' resolver.
    static func isPlainSafe(_ value: String, in context: Context) -> Bool {
        let scalars = Array(value.unicodeScalars)
        guard let first = scalars.first, let last = scalars.last else { return false }
        guard !"-?:,[]{}#&*!|>'\"%@` ".unicodeScalars.contains(first), last != " ", last != ":" else { return false }
        for (index, scalar) in scalars.enumerated() {
            let printable = (scalar.value >= 0x20 && scalar.value < 0x7F) || (scalar.value >= 0xA0 && scalar.properties.isAlphabetic)
            guard printable else { return false }
            if context == .flow && ",[]{}".unicodeScalars.contains(scalar) { return false }
            if scalar == ":" && index + 1 < scalars.count && scalars[index + 1] == " " { return false }
            if scalar == "#" && index > 0 && scalars[index - 1] == " " { return false }
        }
        // Yams' rules only match text starting with a digit, a sign, a dot, `~`, `<`, `=` or one of the letters
        // of yes/no/true/false/on/off/null; anything else is a string without asking the regular expressions.
        if first.isASCIILetter && !"yYnNtTfFoO".unicodeScalars.contains(first) { return true }
        return Resolver.default.resolveTag(of: Node(value)) == .str
    }

    /// A YAML double-quoted scalar: `\` escapes for quotes, backslashes and every non-printable character.
    static func doubleQuoted(_ value: String) -> String {
        var text = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\t": text += "\\t"
            case "\r": text += "\\r"
            default:
                let v = scalar.value
                if v < 0x20 || v == 0x7F || (0x80...0x9F).contains(v) || v == 0x2028 || v == 0x2029 || v == 0xFEFF
                    || (0xE000...0xF8FF).contains(v) {
                    let hex = String(v, radix: 16, uppercase: true)
                    text += v <= 0xFFFF ? "\\u" + String(repeating: "0", count: 4 - hex.count) + hex : "\\U" + String(repeating: "0", count: 8 - hex.count) + hex
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        return text + "\""
    }
}
