import MockIDPCore

/// A value as `mockidp config print` lays it out under its key.
enum PrintedValue {
    /// On the key's line, spelled as given (YAML text already).
    case scalar(String)
    /// `key: [a, b]` when short, one `- item` a line otherwise.
    case strings([String])
    /// A nested mapping, one field a line below the key.
    case mapping([PrintedField])
    /// A list of mappings, `- ` before the first field of each.
    case entries([[PrintedField]])
    /// Claims: a JSON object in block style.
    case object(ClaimSet)
    /// Keys the user chose, each with a flow list (`apiPermissions`).
    case flowLists([(key: String, values: [String])])

    /// A string spelled so that YAML reads it back unchanged; nothing when unset.
    static func text(_ value: String?) -> PrintedValue? { value.map { .scalar(YAMLScalar.text($0)) } }

    /// A list of strings; nothing when empty.
    static func list(_ values: [String]) -> PrintedValue? { values.isEmpty ? nil : .strings(values) }
}

/// One key and its printed value.
struct PrintedField {
    var key: String
    var value: PrintedValue
}
