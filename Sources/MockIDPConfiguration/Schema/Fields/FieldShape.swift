import MockIDPCore

/// What a configuration key holds, as its documentation and the JSON Schema describe it.
package indirect enum FieldShape: Sendable {
    /// Any scalar's text as written.
    case text
    /// Text without spaces: a user name, a scope, a role or a policy name.
    case name
    /// A GUID, such as 6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11.
    case guid
    /// A host name without scheme, port or path.
    case hostName
    /// An absolute URI.
    case uri
    /// A file path, relative to the configuration file's directory.
    case filePath
    /// `true` or `false`.
    case boolean
    /// A whole number in the range.
    case integer(ClosedRange<Int>)
    /// One of these words (read without regard to case).
    case choice([String])
    /// A list of values of one shape.
    case list(FieldShape)
    /// A mapping whose keys the user chooses, each to a value of one shape.
    case map(FieldShape)
    /// A mapping of names to any values (JSON).
    case object
    /// A mapping with the keys of a field table.
    case mapping(MappingSchema)

    /// The JSON Schema of a value of this shape, without a description.
    package var jsonSchema: ClaimSet {
        switch self {
        // The loader takes any scalar's text as written (`name: 42` is the name "42"), so the schema allows
        // numbers and booleans where it reads text; a pattern applies to strings only.
        case .text, .filePath: ["type": Self.scalarTypes]
        case .name: ["type": Self.scalarTypes, "minLength": 1, "pattern": "^\\S+$"]
        // `format` is an annotation that most validators do not check; the pattern is what GUID.isValid accepts.
        case .guid: ["type": "string", "format": "uuid", "pattern": Self.guidPattern]
        // HostName.isValid: RFC 1123 labels, any case (the loader lower-cases), no trailing dot.
        case .hostName: ["type": "string", "format": "hostname", "maxLength": 253, "pattern": Self.hostNamePattern]
        case .uri: ["type": "string", "format": "uri"]
        case .boolean: ["type": "boolean"]
        case .integer(let range): ["type": "integer", "minimum": .int(range.lowerBound), "maximum": .int(range.upperBound)]
        case .choice(let words): ["type": "string", "enum": .array(words.map { .string($0) })]
        case .list(let item): ["type": "array", "items": .object(item.jsonSchema)]
        case .map(let value): ["type": "object", "additionalProperties": .object(value.jsonSchema)]
        case .object: ["type": "object"]
        case .mapping(let mapping): mapping.jsonSchema
        }
    }

    /// JSON types of a YAML scalar other than null.
    private static let scalarTypes: ClaimValue = ["string", "number", "boolean"]
    /// 8-4-4-4-12 hexadecimal digits, any case.
    package static let guidPattern: ClaimValue = "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$"
    /// Dot-separated labels of 1 to 63 letters, digits and hyphens, none starting or ending with a hyphen.
    package static let hostNamePattern: ClaimValue =
        "^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$"

    /// The words of an enumeration's raw values.
    static func choice<Choice: RawRepresentable & CaseIterable>(of _: Choice.Type) -> FieldShape where Choice.RawValue == String {
        .choice(Choice.allCases.map(\.rawValue))
    }
}

/// One key of a mapping as documentation describes it.
package struct FieldSchema: Sendable {
    /// The YAML key.
    package let key: String
    /// What it holds.
    package let shape: FieldShape
    /// One line on what it is for.
    package let summary: String
    /// Whether the mapping must hold it.
    package let isRequired: Bool
}

/// The keys of a mapping, in order.
package struct MappingSchema: Sendable {
    /// The keys.
    package let fields: [FieldSchema]

    /// A JSON Schema object with one property per key, its description included; no other key is allowed.
    package var jsonSchema: ClaimSet {
        var properties = ClaimSet()
        for field in fields {
            var property = field.shape.jsonSchema
            property["description"] = .string(field.summary)
            properties[field.key] = .object(property)
        }
        var schema: ClaimSet = ["type": "object", "properties": .object(properties)]
        let required = fields.filter(\.isRequired).map { ClaimValue.string($0.key) }
        if !required.isEmpty { schema["required"] = .array(required) }
        schema["additionalProperties"] = false
        return schema
    }
}
