import MockIDPCore

/// One key of a configuration mapping, spelled once: its YAML key, what it holds and a one-line description
/// (`schema`), how the decoder reads it into `Target` (the entry being decoded, with the origins validation
/// needs), and how `mockidp config print` writes it from `Model`. `Value` is what a control-API body carries
/// for it (`FieldBody`), so MockIDPTesting sends each key as the configuration file spells it.
package struct Field<Target, Model, Value: FieldValue>: Sendable {
    let row: FieldRow<Target, Model>

    /// The key, its shape and its description.
    package var schema: FieldSchema { row.schema }

    /// The YAML key.
    package var key: String { schema.key }

    /// A field read by `read` (called only when the mapping spells the key, with the value's origin) and
    /// printed by `print` (nil leaves the key out).
    init(_ key: String, _ shape: FieldShape, _ summary: String, required: Bool = false,
         read: @escaping @Sendable (inout ConfigurationDecoder, YAMLNode, Origin, inout Target) -> Void,
         print: @escaping @Sendable (Model) -> PrintedValue?) {
        row = FieldRow(schema: FieldSchema(key: key, shape: shape, summary: summary, isRequired: required), read: read, print: print)
    }
}
