/// A claims struct that lists its own members, in order, to a `ClaimsWriter`: one call a member, under its
/// `CodingKeys` name. The list is the struct's only spelling of its members: its `Encodable` conformance (the
/// `encode(to:)` below, which takes the place of the synthesized one) reads the same list, so the struct encodes
/// alike through `ClaimsEncoder.encode(writable:)` and any `Encoder`.
///
/// Why not `Encodable` alone: an `Encoder` hands out its keyed container in a box, and every member written
/// through the box is a dynamic call with generic-metadata lookups, most of the claims' cost on the token path.
/// The writer is a concrete struct.
package protocol WritableClaims: Encodable {
    associatedtype CodingKeys: CodingKey
    /// Writes every member, present or not, in the claims' order.
    func write(to claims: inout ClaimsWriter) throws
}

extension WritableClaims {
    /// The members `write(to:)` lists, through `encoder`'s keyed container, nil members left out.
    package func encode(to encoder: any Encoder) throws {
        var writer = ClaimsWriter(container: ContainerSink(encoder.container(keyedBy: CodingKeys.self)))
        try write(to: &writer)
    }
}

/// Where a `WritableClaims` struct writes its members: compact JSON bytes, with overrides applied as `ClaimsEncoder`
/// applies them (`ClaimsEncoder.encode(writable:overriding:)`), or an `Encoder`'s keyed container.
package struct ClaimsWriter {
    /// The JSON text so far: `{` and the members written.
    private var bytes: [UInt8] = []
    private let overrides: JSONObject
    /// Names of `overrides` already written in place of a member.
    private var overridden: Set<String> = []
    private let container: (any MemberSink)?

    init(overrides: JSONObject) {
        self.overrides = overrides
        container = nil
        bytes.reserveCapacity(1024)
        bytes.append(UInt8(ascii: "{"))
    }

    fileprivate init(container: any MemberSink) {
        overrides = JSONObject()
        self.container = container
    }

    /// Writes the separator and `"name":`, then the override for `name` if there is one, in which case it returns
    /// false: the member's own value is not written.
    private mutating func begin(_ name: String) -> Bool {
        appendMemberName(name)
        guard !overrides.isEmpty, let override = overrides[name] else { return true }
        overridden.insert(name)
        override.write(into: &bytes)
        return false
    }

    /// Writes the separator and `"name":` for a member's own name: a `CodingKeys` name, spelled in the source, which
    /// never needs escaping, so it is copied without the escape scan (twenty-odd names a token).
    private mutating func appendMemberName(_ name: String) {
        assert(name.utf8.allSatisfy { $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") && $0 != UInt8(ascii: "<") },
               "a claims struct's member name needs escaping: \(name)")
        if bytes.last != UInt8(ascii: "{") { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: name.utf8)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// Writes the separator and `"name":`, escaped (the names of overrides come from configurations and tests).
    private mutating func appendName(_ name: String) {
        if bytes.last != UInt8(ascii: "{") { bytes.append(UInt8(ascii: ",")) }
        JSONText.appendString(name, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }

    package mutating func member(_ key: some CodingKey, _ value: String) throws {
        if let container { return try container.encode(value, forKey: key) }
        if begin(key.stringValue) { JSONText.appendString(value, to: &bytes) }
    }

    package mutating func member(_ key: some CodingKey, _ value: Int) throws {
        if let container { return try container.encode(value, forKey: key) }
        if begin(key.stringValue) { JSONText.appendInt(value, to: &bytes) }
    }

    package mutating func member(_ key: some CodingKey, _ value: Bool) throws {
        if let container { return try container.encode(value, forKey: key) }
        if begin(key.stringValue) { bytes.append(contentsOf: (value ? "true" : "false").utf8) }
    }

    package mutating func member(_ key: some CodingKey, _ value: [String]) throws {
        if let container { return try container.encode(value, forKey: key) }
        guard begin(key.stringValue) else { return }
        bytes.append(UInt8(ascii: "["))
        for (i, s) in value.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONText.appendString(s, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    // Nil members are left out, as `encodeIfPresent` leaves them out.
    package mutating func member(_ key: some CodingKey, _ value: String?) throws { if let value { try member(key, value) } }
    package mutating func member(_ key: some CodingKey, _ value: Int?) throws { if let value { try member(key, value) } }
    package mutating func member(_ key: some CodingKey, _ value: Bool?) throws { if let value { try member(key, value) } }
    package mutating func member(_ key: some CodingKey, _ value: [String]?) throws { if let value { try member(key, value) } }

    /// The finished object: the overrides no member took, in their order, and `}`.
    mutating func finish() -> [UInt8] {
        for (name, value) in overrides where !overridden.contains(name) {
            appendName(name)
            value.write(into: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }
}

/// A keyed container a `ClaimsWriter` writes through, whatever its key type.
private protocol MemberSink: AnyObject {
    func encode(_ value: String, forKey key: some CodingKey) throws
    func encode(_ value: Int, forKey key: some CodingKey) throws
    func encode(_ value: Bool, forKey key: some CodingKey) throws
    func encode(_ value: [String], forKey key: some CodingKey) throws
}

private final class ContainerSink<Key: CodingKey>: MemberSink {
    private var container: KeyedEncodingContainer<Key>

    init(_ container: KeyedEncodingContainer<Key>) { self.container = container }

    /// The writer's keys are the claims struct's `CodingKeys`, which is `Key`.
    private func key(_ key: some CodingKey) -> Key {
        if let same = key as? Key { return same }
        preconditionFailure("a claims struct writes its members under its own CodingKeys")
    }

    func encode(_ value: String, forKey key: some CodingKey) throws { try container.encode(value, forKey: self.key(key)) }
    func encode(_ value: Int, forKey key: some CodingKey) throws { try container.encode(value, forKey: self.key(key)) }
    func encode(_ value: Bool, forKey key: some CodingKey) throws { try container.encode(value, forKey: self.key(key)) }
    func encode(_ value: [String], forKey key: some CodingKey) throws { try container.encode(value, forKey: self.key(key)) }
}
