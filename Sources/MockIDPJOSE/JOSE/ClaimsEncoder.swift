/// Writes a claims struct (any `Encodable` whose `encode(to:)` uses a keyed container, as synthesized conformances
/// do) as one compact JSON object, straight into bytes: members in the order the struct encodes them, optional
/// members left out when nil. Wire names live in the struct's `CodingKeys`; no dictionary is built.
///
/// `overriding` replaces members of the same name in place and appends the others after them, in their order:
/// the same result as setting each of them on a `JSONObject` of the claims.
///
/// Member values may be `String`, `Int`, `Bool`, `Double`, `[String]`, `JSONValue`, `JSONObject`, an enum with
/// `String` raw values, or another claims-like struct; anything else throws `EncodingError`.
package enum ClaimsEncoder {
    /// The compact JSON text of `claims` with `overriding` applied.
    package static func encode(_ claims: some Encodable, overriding: JSONObject = JSONObject()) throws(JOSEError) -> [UInt8] {
        let sink = ClaimsSink(overrides: overriding)
        sink.bytes.reserveCapacity(1024)
        sink.bytes.append(UInt8(ascii: "{"))
        do {
            try claims.encode(to: ClaimsObjectEncoder(sink: sink, isTopLevel: true))
        } catch {
            throw JOSEError(reason: "the claims could not be encoded: \(error)")
        }
        if !overriding.isEmpty {
            for (name, value) in overriding where !sink.overridden.contains(name) {
                sink.member(name)
                value.write(into: &sink.bytes)
            }
        }
        sink.bytes.append(UInt8(ascii: "}"))
        return sink.bytes
    }

    /// The same text for a `WritableClaims` struct, which lists its members to a `ClaimsWriter` itself: the token
    /// path's way, with no `Encoder` in between.
    package static func encode(writable claims: some WritableClaims, overriding: JSONObject = JSONObject()) throws(JOSEError) -> [UInt8] {
        var writer = ClaimsWriter(overrides: overriding)
        do {
            try claims.write(to: &writer)
        } catch {
            throw JOSEError(reason: "the claims could not be encoded: \(error)")
        }
        return writer.finish()
    }
}

/// The buffer the containers of one `ClaimsEncoder.encode` call share.
private final class ClaimsSink {
    var bytes: [UInt8] = []
    let overrides: JSONObject
    /// Names of `overrides` already written in place of a member.
    var overridden: Set<String> = []

    init(overrides: JSONObject) { self.overrides = overrides }

    /// Writes the separator and `"name":`.
    func member(_ name: String) { Self.member(name, to: &bytes) }

    /// Writes the member `"name":"value"`. Each use of `bytes`, a class's stored property, costs a dynamic
    /// exclusivity check: the whole member is written in one.
    func member(_ name: String, string value: String) {
        Self.member(name, string: value, to: &bytes)
    }

    /// Writes the member `"name":value`.
    func member(_ name: String, int value: Int) {
        Self.member(name, int: value, to: &bytes)
    }

    private static func member(_ name: String, to out: inout [UInt8]) {
        if out.last != UInt8(ascii: "{") { out.append(UInt8(ascii: ",")) }
        JSONText.appendString(name, to: &out)
        out.append(UInt8(ascii: ":"))
    }

    private static func member(_ name: String, string value: String, to out: inout [UInt8]) {
        member(name, to: &out)
        JSONText.appendString(value, to: &out)
    }

    private static func member(_ name: String, int value: Int, to out: inout [UInt8]) {
        member(name, to: &out)
        JSONText.appendInt(value, to: &out)
    }

    private static func append(_ strings: [String], to out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (i, s) in strings.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSONText.appendString(s, to: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// Writes one member value of the supported kinds. Claims' own types are told apart by comparing type
    /// metadata, which costs far less than a dynamic cast on the token path.
    func value<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws {
        if T.self == [String].self {
            Self.append(unsafeBitCast(value, to: [String].self), to: &bytes)
            return
        }
        if T.self == String.self { JSONText.appendString(unsafeBitCast(value, to: String.self), to: &bytes); return }
        if T.self == Int.self { JSONText.appendInt(unsafeBitCast(value, to: Int.self), to: &bytes); return }
        if T.self == Bool.self { bytes.append(contentsOf: (unsafeBitCast(value, to: Bool.self) ? "true" : "false").utf8); return }
        switch value {
        case let d as Double: JSONValue.double(d).write(into: &bytes)
        case let v as JSONValue: v.write(into: &bytes)
        case let o as JSONObject: JSONValue.object(o).write(into: &bytes)
        case let r as any RawRepresentable<String>: JSONText.appendString(r.rawValue, to: &bytes)
        default:
            bytes.append(UInt8(ascii: "{"))
            try value.encode(to: ClaimsObjectEncoder(sink: self, isTopLevel: false, codingPath: codingPath))
            bytes.append(UInt8(ascii: "}"))
        }
    }
}

/// The `Encoder` a claims struct sees: it offers a keyed container only.
private struct ClaimsObjectEncoder: Encoder {
    let sink: ClaimsSink
    let isTopLevel: Bool
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(ClaimsContainer<Key>(sink: sink, isTopLevel: isTopLevel, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { Unsupported(codingPath: codingPath) }
    func singleValueContainer() -> any SingleValueEncodingContainer { Unsupported(codingPath: codingPath) }
}

private struct ClaimsContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let sink: ClaimsSink
    let isTopLevel: Bool
    var codingPath: [any CodingKey]

    /// Writes `"key":` and then either the override for `key` (top level only) or the value `write` produces.
    private func member(_ key: Key, _ write: () throws -> Void) throws {
        let name = key.stringValue
        if wroteOverride(name) { return }
        sink.member(name)
        try write()
    }

    /// Writes the override for `name` as the member's value, if there is one (top level only).
    private func wroteOverride(_ name: String) -> Bool {
        guard isTopLevel, !sink.overrides.isEmpty, let override = sink.overrides[name] else { return false }
        sink.member(name)
        sink.overridden.insert(name)
        override.write(into: &sink.bytes)
        return true
    }

    mutating func encodeNil(forKey key: Key) throws { try member(key) { sink.bytes.append(contentsOf: "null".utf8) } }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try member(key) { try sink.value(value, codingPath: codingPath) } }
    // Strings and integers, most of a token's claims, are written without a closure.
    mutating func encode(_ value: String, forKey key: Key) throws {
        let name = key.stringValue
        if !wroteOverride(name) { sink.member(name, string: value) }
    }
    mutating func encode(_ value: Double, forKey key: Key) throws { try member(key) { try sink.value(value, codingPath: codingPath) } }
    mutating func encode(_ value: Int, forKey key: Key) throws {
        let name = key.stringValue
        if !wroteOverride(name) { sink.member(name, int: value) }
    }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try member(key) { try sink.value(value, codingPath: codingPath) }
    }
    // The standard library's defaults for optionals run unspecialized; these skip a nil for the price of a test.
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        preconditionFailure("claims structs write nested objects as values, never through nested containers")
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        preconditionFailure("claims structs write arrays as values, never through nested containers")
    }
    mutating func superEncoder() -> any Encoder { preconditionFailure("claims structs have no superclass encoding") }
    mutating func superEncoder(forKey key: Key) -> any Encoder { preconditionFailure("claims structs have no superclass encoding") }
}

/// The unkeyed and single-value containers: a claims object has neither, so any use throws.
private struct Unsupported: UnkeyedEncodingContainer, SingleValueEncodingContainer {
    var codingPath: [any CodingKey]
    var count: Int { 0 }

    private func fail() -> EncodingError {
        EncodingError.invalidValue((), EncodingError.Context(codingPath: codingPath,
                                                              debugDescription: "claims are objects of members"))
    }

    mutating func encodeNil() throws { throw fail() }
    mutating func encode(_ value: Bool) throws { throw fail() }
    mutating func encode(_ value: String) throws { throw fail() }
    mutating func encode(_ value: Double) throws { throw fail() }
    mutating func encode(_ value: Int) throws { throw fail() }
    mutating func encode<T: Encodable>(_ value: T) throws { throw fail() }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        preconditionFailure("claims are objects of members")
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { preconditionFailure("claims are objects of members") }
    mutating func superEncoder() -> any Encoder { preconditionFailure("claims are objects of members") }
}
