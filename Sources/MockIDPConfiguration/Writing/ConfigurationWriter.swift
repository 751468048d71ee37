import MockIDPCore

/// Writes a configuration as YAML (`mockidp config print`): the effective configuration in the order of the
/// field tables, defaults filled in (derived object IDs, client types, the cloud), loadable again by
/// `ConfigurationLoader.parse` with an equal result. Empty lists and unset optional values are left out.
/// Certificates are written as the paths they were read from, so parse the output with the same base
/// directory (a configuration merged from files in several directories may need its paths adjusted).
package enum ConfigurationWriter {
    /// The YAML text of `configuration`.
    package static func yaml(_ configuration: IdentityProviderConfiguration) -> String {
        var out = YAMLLines()
        out.fields(RootFields.table.printed(configuration), indent: "")
        return out.text
    }
}

/// The lines of a YAML text being written, block style.
private struct YAMLLines {
    private var lines: [String] = []

    var text: String { lines.joined(separator: "\n") + "\n" }

    mutating func line(_ text: String) { lines.append(text) }

    /// The fields of a mapping, one a line at `indent`; the first one after `lead` instead (`  - ` for an item).
    mutating func fields(_ fields: [PrintedField], indent: String, lead: String? = nil) {
        for (offset, field) in fields.enumerated() {
            self.field(field.key, field.value, lead: offset == 0 ? lead ?? indent : indent, indent: indent)
        }
    }

    /// One field: its key after `lead`, what nests below it indented from `indent`.
    private mutating func field(_ key: String, _ value: PrintedValue, lead: String, indent: String) {
        switch value {
        case .scalar(let text):
            line(lead + key + ": " + text)
        case .strings(let values):
            // `key: [a, b]` when short, one `- item` a line otherwise.
            let flow = Self.flowList(values)
            if flow.count + indent.count + key.count <= 100 && !flow.contains("\"") {
                line(lead + key + ": " + flow)
            } else {
                line(lead + key + ":")
                for value in values { line(indent + "  - " + YAMLScalar.text(value)) }
            }
        case .mapping(let nested):
            line(lead + key + ":")
            fields(nested, indent: indent + "  ")
        case .entries(let entries):
            line(lead + key + ":")
            for entry in entries { fields(entry, indent: indent + "    ", lead: indent + "  - ") }
        case .object(let claims):
            line(lead + key + ":")
            object(claims, indent: indent + "  ")
        case .flowLists(let lists):
            line(lead + key + ":")
            for list in lists { self.key(list.key, indent: indent + "  ", rest: " " + Self.flowList(list.values)) }
        }
    }

    /// `[a, b]`, each item spelled for a flow collection.
    static func flowList(_ values: [String]) -> String {
        "[" + values.map { YAMLScalar.text($0, in: .flow) }.joined(separator: ", ") + "]"
    }

    /// A mapping key and what follows its colon. Keys longer than YAML's 1024-character limit for implicit
    /// keys take the explicit form (`? key` then `: value`).
    mutating func key(_ key: String, indent: String, rest: String) {
        let spelled = YAMLScalar.text(key)
        if spelled.count > 1000 {
            line(indent + "? " + spelled)
            line(indent + ":" + rest)
        } else {
            line(indent + spelled + ":" + rest)
        }
    }

    /// The members of a claims object, one a line, nested values indented below their key.
    mutating func object(_ object: ClaimSet, indent: String) {
        for (name, value) in object {
            switch value {
            case .object(let members) where !members.isEmpty:
                key(name, indent: indent, rest: "")
                self.object(members, indent: indent + "  ")
            case .array(let items) where !items.isEmpty:
                key(name, indent: indent, rest: "")
                array(items, indent: indent + "  ")
            default:
                key(name, indent: indent, rest: " " + Self.inline(value))
            }
        }
    }

    private mutating func array(_ items: [ClaimValue], indent: String) {
        for item in items {
            switch item {
            case .object(let members) where !members.isEmpty:
                line(indent + "-")
                object(members, indent: indent + "  ")
            case .array(let nested) where !nested.isEmpty:
                line(indent + "-")
                array(nested, indent: indent + "  ")
            default:
                line(indent + "- " + Self.inline(item))
            }
        }
    }

    /// A scalar or empty collection on one line.
    private static func inline(_ value: ClaimValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .int(let number): String(number)
        case .double(let number): number.isFinite ? String(number) : "null"
        case .string(let text): YAMLScalar.text(text)
        case .array: "[]"
        case .object: "{}"
        }
    }
}
