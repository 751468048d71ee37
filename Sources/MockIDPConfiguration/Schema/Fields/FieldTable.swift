
/// A field with its value type erased: one row of a `FieldTable`.
struct FieldRow<Target, Model>: Sendable {
    let schema: FieldSchema
    let read: @Sendable (inout ConfigurationDecoder, YAMLNode, Origin, inout Target) -> Void
    let print: @Sendable (Model) -> PrintedValue?
}

/// The keys a mapping of the configuration may hold, in the order `mockidp config print` writes them: the
/// decoder's known keys (and typo suggestions), its required keys, the printed form and the JSON Schema all
/// follow from it.
package struct FieldTable<Target, Model>: Sendable {
    let rows: [FieldRow<Target, Model>]
    /// The keys, in order.
    let keys: [String]
    /// The keys again, for origins to name by row.
    let keyTable: FieldKeys
    /// The rows in the order the decoder reads them: the table's, unless told (`reading(_:before:)`).
    private(set) var readingOrder: [Int]
    private let rowIndex: [String: Int]

    init<each Value: FieldValue>(_ fields: repeat Field<Target, Model, each Value>) {
        var rows: [FieldRow<Target, Model>] = []
        for field in repeat each fields { rows.append(field.row) }
        self.rows = rows
        // A closure, not `\.schema.key`: that key path failed at run time here ("could not demangle keypath
        // type") with Swift 6.3.
        keys = rows.map { $0.schema.key }
        keyTable = FieldKeys(keys)
        var index: [String: Int] = [:]
        for (offset, key) in keys.enumerated() {
            guard index[key] == nil else { preconditionFailure("a mapping's field table names each key once: '\(key)' twice") }
            index[key] = offset
        }
        rowIndex = index
        readingOrder = Array(rows.indices)
    }

    /// The table with `field` read just before `other`. Problems found on one line are reported in reading
    /// order, so this keeps that order where it differs from the printed one.
    func reading<Earlier, Later>(_ field: Field<Target, Model, Earlier>, before other: Field<Target, Model, Later>) -> Self {
        var table = self
        guard let moved = rowIndex[field.key], let anchor = rowIndex[other.key] else { return table }
        table.readingOrder.removeAll { $0 == moved }
        table.readingOrder.insert(moved, at: table.readingOrder.firstIndex(of: anchor) ?? table.readingOrder.endIndex)
        return table
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
