/// A JSON value that keeps object member order and tells integers from fractions, so that
/// documents and token claims are written exactly in the order and form they were built.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number without fraction or exponent, written back exactly.
    case int(Int)
    /// Any other number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, members in order.
    case object(JSONObject)
}

extension JSONValue {
    /// The string, when this is one.
    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    /// The integer, when this is an integer or a double with no fraction (JWT NumericDates may be either).
    public var intValue: Int? {
        switch self {
        case .int(let i): i
        case .double(let d) where d.rounded(.towardZero) == d && abs(d) < 9.0e15: Int(d)
        default: nil
        }
    }
    /// The number as a double, when this is a number.
    public var doubleValue: Double? {
        switch self {
        case .int(let i): Double(i)
        case .double(let d): d
        default: nil
        }
    }
    /// The boolean, when this is one.
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    /// The members, when this is an object.
    public var objectValue: JSONObject? { if case .object(let o) = self { o } else { nil } }
    /// The member `key`, when this is an object that has it.
    public subscript(key: String) -> JSONValue? { objectValue?[key] }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral, ExpressibleByFloatLiteral
{
    /// `"text"` as a JSON string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// `42` as a JSON integer.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// `true` as a JSON boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// `1.5` as a JSON double.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// `[…]` as a JSON array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// `[key: value, …]` as a JSON object, members in the order written.
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
    /// `nil` as JSON `null`.
    public init(nilLiteral: ()) { self = .null }
}

/// The members of a JSON object, in insertion order; setting an existing key keeps its place.
public struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// The members in order.
    public private(set) var members: [(key: String, value: JSONValue)] = []
    /// Each member's position by name, kept once the object has more than `linearLimit` members. Smaller objects
    /// (a token response, claims overrides, an error body) find a name by comparing, which costs less than hashing
    /// it and keeping an index for so few members.
    private var index: [String: Int]?
    private static let linearLimit = 12

    /// An empty object.
    public init() {}
    /// An object of `pairs` in order; a repeated key keeps its first place and its last value.
    public init(_ pairs: some Sequence<(String, JSONValue)>) {
        members.reserveCapacity(pairs.underestimatedCount)
        for (k, v) in pairs { self[k] = v }
    }
    /// `[key: value, …]`, members in the order written.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        members.reserveCapacity(elements.count)
        for (k, v) in elements { self[k] = v }
    }

    private func position(of key: String) -> Int? {
        if let index { return index[key] }
        return members.firstIndex { $0.key == key }
    }

    /// The value of `key`; setting nil removes it.
    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { members[$0].value } }
        set {
            if let newValue {
                if let i = position(of: key) { members[i].value = newValue } else {
                    members.append((key, newValue))
                    if index != nil {
                        index?[key] = members.count - 1
                    } else if members.count > Self.linearLimit {
                        index = Dictionary(uniqueKeysWithValues: members.enumerated().map { ($1.key, $0) })
                    }
                }
            } else if let i = position(of: key) {
                members.remove(at: i)
                if index != nil {
                    index?.removeValue(forKey: key)
                    for j in i..<members.count { index?[members[j].key] = j }
                }
            }
        }
    }
    /// The member names in order.
    public var keys: [String] { members.map(\.key) }
    /// The number of members.
    public var count: Int { members.count }
    /// Whether there are no members.
    public var isEmpty: Bool { members.isEmpty }
    /// Iterates over the members in order.
    public func makeIterator() -> IndexingIterator<[(key: String, value: JSONValue)]> { members.makeIterator() }

    /// Sets every member of `other`, overriding members with the same key.
    public mutating func merge(_ other: JSONObject) { for (k, v) in other { self[k] = v } }

    /// Equal when the same members appear in the same order.
    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        a.members.count == b.members.count && zip(a.members, b.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
    /// Hashes the members in order, agreeing with `==`.
    public func hash(into h: inout Hasher) { for (k, v) in members { h.combine(k); h.combine(v) } }
}

/// A member name known only at run time, for encoding `JSONObject`s through any `Encoder`.
private struct DynamicKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension JSONValue: Encodable {
    /// Encodes the value as itself (objects keep their member order where the encoder keeps call order).
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var c = encoder.singleValueContainer()
            try c.encodeNil()
        case .bool(let b):
            var c = encoder.singleValueContainer()
            try c.encode(b)
        case .int(let i):
            var c = encoder.singleValueContainer()
            try c.encode(i)
        case .double(let d):
            var c = encoder.singleValueContainer()
            try c.encode(d)
        case .string(let s):
            var c = encoder.singleValueContainer()
            try c.encode(s)
        case .array(let a):
            var c = encoder.unkeyedContainer()
            for v in a { try c.encode(v) }
        case .object(let o):
            try o.encode(to: encoder)
        }
    }
}

extension JSONObject: Encodable {
    /// Encodes the members in order.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: DynamicKey.self)
        for (k, v) in members { try c.encode(v, forKey: DynamicKey(stringValue: k)) }
    }
}
