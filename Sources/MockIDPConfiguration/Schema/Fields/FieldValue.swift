import MockIDPCore

/// A value a configuration key holds, as a control-API body carries it (keyed as in the configuration file).
package protocol FieldValue {
    /// The JSON of the value; nil leaves the key out (an empty list, say), so the server's default applies.
    var fieldJSON: ClaimValue? { get }
}

/// An item of a list-valued key: how a list of them is sent.
package protocol FieldListItem {
    /// The JSON of a non-empty list.
    static func fieldJSON(of items: [Self]) -> ClaimValue
}

extension String: FieldValue, FieldListItem {
    package var fieldJSON: ClaimValue? { .string(self) }
    package static func fieldJSON(of items: [String]) -> ClaimValue { .array(items.map { .string($0) }) }
}

extension Int: FieldValue {
    package var fieldJSON: ClaimValue? { .int(self) }
}

extension Bool: FieldValue {
    package var fieldJSON: ClaimValue? { .bool(self) }
}

extension Array: FieldValue where Element: FieldListItem {
    // Not `isEmpty ? nil : …`: `ClaimValue` takes `nil` as JSON's null.
    package var fieldJSON: ClaimValue? { isEmpty ? ClaimValue?.none : Element.fieldJSON(of: self) }
}

extension Optional: FieldValue where Wrapped: FieldValue {
    package var fieldJSON: ClaimValue? { self?.fieldJSON }
}

extension ClaimSet: FieldValue {
    package var fieldJSON: ClaimValue? { isEmpty ? ClaimValue?.none : .object(self) }
}

/// `apiPermissions`: a mapping of each API to its values.
extension APIPermission: FieldListItem {
    package static func fieldJSON(of items: [APIPermission]) -> ClaimValue {
        .object(ClaimSet(items.map { ($0.resource, String.fieldJSON(of: $0.values)) }))
    }
}

extension FieldValue where Self: RawRepresentable, RawValue == String {
    package var fieldJSON: ClaimValue? { .string(rawValue) }
}

extension ClientType: FieldValue {}
extension CloudName: FieldValue {}
extension PolicyClaim: FieldValue {}
extension ExternalIDSignInMethod: FieldValue {}
extension GroupMembershipClaims: FieldValue {}

/// The value type of a key holding nested mappings (`tokens`, `b2c`, `users`, …): a control-API body never
/// carries one, so it has no JSON of its own.
package struct Nested: FieldValue {
    package var fieldJSON: ClaimValue? { nil }
}

/// A control-API body (a user, an app) keyed as in the configuration file, built from the field tables'
/// typed fields so that nothing else spells a key.
package struct FieldBody: Sendable {
    /// The body so far, keys in the order they were set.
    package private(set) var object = ClaimSet()

    /// An empty body.
    package init() {}

    /// Sets the field's key to `value`, unless it is nil (or an empty list or object).
    package mutating func set<Target, Model, Value>(_ field: Field<Target, Model, Value>, _ value: Value?) {
        if let json = value?.fieldJSON { object[field.key] = json }
    }

    /// Sets a choice's key to a word as given (the server reads it and names the words it knows).
    package mutating func set<Target, Model, Value>(_ field: Field<Target, Model, Value>, word: String?)
    where Value: RawRepresentable, Value.RawValue == String {
        if let word { object[field.key] = .string(word) }
    }

    /// Adds keys not in the tables' typed form, as given (they win over the same keys set before).
    package mutating func merge(_ other: ClaimSet) { object.merge(other) }
}
