import MockIDPText

/// Header fields in the order they were added, as (name, value) pairs; names compare without regard to ASCII case.
package struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header field.
    package typealias Element = (name: String, value: String)

    private var fields: [Element]

    /// No fields.
    package init() {
        fields = []
    }

    /// The given fields, in order.
    package init(_ fields: [Element]) {
        self.fields = fields
    }

    /// The fields of a literal, in the order written.
    package init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    /// Gets the first value of `name`; setting replaces every field of that name (at the first one's position), nil removes them.
    package subscript(name: String) -> String? {
        get {
            // By index: `first(where:)` copied each field it passed over (two references counted up and down).
            for index in fields.indices where ASCII.caseInsensitiveEquals(fields[index].name, name) {
                return fields[index].value
            }
            return nil
        }
        set {
            let position = fields.firstIndex { ASCII.caseInsensitiveEquals($0.name, name) }
            fields.removeAll { ASCII.caseInsensitiveEquals($0.name, name) }
            guard let newValue else { return }
            fields.insert((name: name, value: newValue), at: position ?? fields.count)
        }
    }

    /// Every value of `name`, in order.
    package func values(_ name: String) -> [String] {
        fields.compactMap { ASCII.caseInsensitiveEquals($0.name, name) ? $0.value : nil }
    }

    /// Appends a field, keeping any existing ones of the same name (as `Set-Cookie` needs).
    package mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    /// True when a field of that name is present.
    package func contains(_ name: String) -> Bool {
        fields.indices.contains { ASCII.caseInsensitiveEquals(fields[$0].name, name) }
    }

    /// The number of fields.
    package var count: Int { fields.count }

    /// True when there are no fields.
    package var isEmpty: Bool { fields.isEmpty }

    /// Iterates the fields in order.
    package func makeIterator() -> IndexingIterator<[Element]> {
        fields.makeIterator()
    }

    /// Reserves room for `n` fields (the server knows the count before it copies them).
    mutating func reserveCapacity(_ n: Int) {
        fields.reserveCapacity(n)
    }
}
