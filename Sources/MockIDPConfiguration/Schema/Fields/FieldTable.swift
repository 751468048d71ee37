import Yams

/// A field with its value type erased: one row of a `FieldTable`.
struct FieldRow<Target, Model>: Sendable {
    let schema: FieldSchema
    let read: @Sendable (inout ConfigurationDecoder, Node, Origin, inout Target) -> Void
    let print: @Sendable (Model) -> PrintedValue?
}

/// The keys a mapping of the configuration may hold, in the order `mockidp config print` writes them: the
/// decoder's known keys (and typo suggestions), its required keys, the printed form and the JSON Schema all
/// follow from it.
package struct FieldTable<Target, Model>: Sendable {
    let rows: [FieldRow<Target, Model>]
    /// The keys, in order.
    let keys: [String]
    private let rowIndex: [String: Int]

    init<each Value: FieldValue>(_ fields: repeat Field<Target, Model, each Value>) {
        var rows: [FieldRow<Target, Model>] = []
        for field in repeat each fields { rows.append(field.row) }
        self.rows = rows
        keys = rows.map { $0.schema.key }
        var index: [String: Int] = [:]
        for (offset, key) in keys.enumerated() { index[key] = offset }
        rowIndex = index
    }

    /// The row of `key`, if the mapping knows it.
    func row(of key: String) -> Int? { rowIndex[key] }

    /// The keys and descriptions, for documentation and the JSON Schema.
    package var schema: MappingSchema { MappingSchema(fields: rows.map { $0.schema }) }

    /// The fields of `model` as `config print` writes them, in table order.
    func printed(_ model: Model) -> [PrintedField] {
        rows.compactMap { row in row.print(model).map { PrintedField(key: row.schema.key, value: $0) } }
    }
}
