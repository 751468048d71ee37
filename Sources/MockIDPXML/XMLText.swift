/// Escaping for the XML mockidp writes: element text and attribute values (https://www.w3.org/TR/xml/#syntax).
package enum XMLText {
    /// `text` as element content: `&`, `<` and `>` escaped.
    package static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") }) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `value` inside a double-quoted attribute: also `"`, and the white space an attribute's normalization would
    /// otherwise turn into spaces (https://www.w3.org/TR/xml/#AVNormalize).
    package static func attribute(_ value: String) -> String {
        var out = ""
        out.reserveCapacity(value.utf8.count + 16)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\t": out += "&#9;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
