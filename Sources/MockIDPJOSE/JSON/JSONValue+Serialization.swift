extension JSONValue {
    /// The compact UTF-8 JSON text of this value.
    public func serialized() -> [UInt8] {
        var out: [UInt8] = []
        // Room for the text as it is without escapes, so a token response (about 1.3 KB) is written without growing.
        out.reserveCapacity(unescapedLength)
        write(into: &out)
        return out
    }

    /// The length of this value's compact text if no string needed escaping (numbers counted at 20 bytes).
    var unescapedLength: Int {
        switch self {
        case .null, .bool: 5
        case .int, .double: 20
        case .string(let s): s.utf8.count + 2
        case .array(let items): items.reduce(2) { $0 + $1.unescapedLength + 1 }
        case .object(let object): object.members.reduce(2) { $0 + $1.key.utf8.count + 4 + $1.value.unescapedLength }
        }
    }

    /// The compact JSON text of this value.
    public var jsonString: String { String(decoding: serialized(), as: UTF8.self) }

    /// The JSON text of this value laid out for people and diffs: two spaces per level, one member or item a
    /// line (empty arrays and objects stay `[]` and `{}`), no newline at the end.
    public var prettyJSONString: String {
        var out: [UInt8] = []
        writePretty(into: &out, indent: 0)
        return String(decoding: out, as: UTF8.self)
    }

    private func writePretty(into out: inout [UInt8], indent: Int) {
        func newline(_ level: Int) {
            out.append(UInt8(ascii: "\n"))
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
        }
        switch self {
        case .array(let items) where !items.isEmpty:
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                item.writePretty(into: &out, indent: indent + 1)
            }
            newline(indent)
            out.append(UInt8(ascii: "]"))
        case .object(let object) where !object.isEmpty:
            out.append(UInt8(ascii: "{"))
            for (i, member) in object.members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                JSONText.appendString(member.key, to: &out)
                out.append(contentsOf: ": ".utf8)
                member.value.writePretty(into: &out, indent: indent + 1)
            }
            newline(indent)
            out.append(UInt8(ascii: "}"))
        default:
            write(into: &out)
        }
    }

    func write(into out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): JSONText.appendInt(i, to: &out)
        case .double(let d):
            // JSON has no NaN or infinity; write null rather than invalid text.
            if d.isFinite { out.append(contentsOf: String(d).utf8) } else { out.append(contentsOf: "null".utf8) }
        case .string(let s): JSONText.appendString(s, to: &out)
        case .array(let a):
            out.append(UInt8(ascii: "["))
            for (i, v) in a.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                v.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let o):
            out.append(UInt8(ascii: "{"))
            for (i, m) in o.members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONText.appendString(m.key, to: &out)
                out.append(UInt8(ascii: ":"))
                m.value.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }
}
