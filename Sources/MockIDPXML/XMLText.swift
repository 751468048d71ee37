/// Escaping for the XML mockidp writes: element text and attribute values (https://www.w3.org/TR/xml/#syntax).
package enum XMLText {
    /// `text` as element content: `&`, `<` and `>` escaped.
    package static func escape(_ text: String) -> String { escaped(text, inAttribute: false) }

    /// `value` inside a double-quoted attribute: also `"`, and the white space an attribute's normalization would
    /// otherwise turn into spaces (https://www.w3.org/TR/xml/#AVNormalize).
    package static func attribute(_ value: String) -> String { escaped(value, inAttribute: true) }

    private static func escaped(_ text: String, inAttribute: Bool) -> String {
        let special = { (byte: UInt8) in
            byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
                || inAttribute && (byte == UInt8(ascii: "\"") || byte == 0x09 || byte == 0x0A || byte == 0x0D)
        }
        guard text.utf8.contains(where: special) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where inAttribute: out += "&quot;"
            case "\t" where inAttribute: out += "&#9;"
            case "\n" where inAttribute: out += "&#10;"
            case "\r" where inAttribute: out += "&#13;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
