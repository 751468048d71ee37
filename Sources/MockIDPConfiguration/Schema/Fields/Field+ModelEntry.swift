/// An entry being decoded that holds the model value it builds (a user, an app), so a field can name the
/// model's property by key path alone.
protocol ModelEntry: SendableMetatype {
    associatedtype Model
    static var modelPath: FieldPath<Self, Model> { get }
}

/// A key path a field keeps: `Sendable`, so tables can be static constants.
typealias FieldPath<Root, Value> = WritableKeyPath<Root, Value> & Sendable

extension Field where Target: ModelEntry, Target.Model == Model {
    /// Text (`name: 42` is the name "42"); an empty value leaves it unset.
    static func text(_ key: String, _ summary: String, _ path: FieldPath<Model, String?>) -> Self where Value == String {
        let model = Target.modelPath
        return Self(
            key, .text, summary,
            read: { decoder, node, origin, entry in
                entry[keyPath: model][keyPath: path] = decoder.optionalString(node, at: origin)
            },
            print: { .text($0[keyPath: path]) })
    }

    /// `true` or `false`; an empty value is false. Printed always, or only when true.
    static func flag(_ key: String, _ summary: String, _ path: FieldPath<Model, Bool>, printedWhenFalse: Bool = false) -> Self
    where Value == Bool {
        let model = Target.modelPath
        return Self(
            key, .boolean, summary,
            read: { decoder, node, origin, entry in
                entry[keyPath: model][keyPath: path] = decoder.bool(node, at: origin) ?? false
            },
            print: { value in
                let flag = value[keyPath: path]
                return flag || printedWhenFalse ? .scalar(flag ? "true" : "false") : nil
            })
    }

    /// Scope and role names: non-empty, without spaces, each once.
    static func names(_ key: String, _ summary: String, _ path: FieldPath<Model, [String]>) -> Self where Value == [String] {
        let model = Target.modelPath
        return Self(
            key, .list(.name), summary,
            read: { decoder, node, origin, entry in
                entry[keyPath: model][keyPath: path] = decoder.names(node, at: origin).map(\.value)
            },
            print: { .list($0[keyPath: path]) })
    }
}
