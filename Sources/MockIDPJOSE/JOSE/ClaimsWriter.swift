/// A claims struct that lists its own members, in order, to a `ClaimsWriter`: one call a member, under its wire
/// name. The list is the only place a claim's wire name is spelled.
///
/// Why not `Encodable`: an `Encoder` hands out its keyed container in a box, and every member written through the
/// box is a dynamic call with generic-metadata lookups, most of the claims' cost on the token path. The writer is a
/// concrete struct.
package protocol WritableClaims {
    /// Writes every member, present or not, in the claims' order.
    func write(to claims: inout ClaimsWriter)
}

/// Writes a `WritableClaims` struct as one compact JSON object, straight into bytes: members in the order the struct
/// lists them, nil members left out; no dictionary is built.
///
/// `overriding` replaces members of the same name in place and appends the others after them, in their order: the
/// same result as setting each of them on a `JSONObject` of the claims.
package struct ClaimsWriter {
    /// The JSON text so far: `{` and the members written.
    private var bytes: [UInt8] = []
    private let overrides: JSONObject
    /// Names of `overrides` already written in place of a member.
    private var overridden: Set<String> = []

    private init(overrides: JSONObject) {
        self.overrides = overrides
        bytes.reserveCapacity(1024)
        bytes.append(UInt8(ascii: "{"))
    }

    /// The compact JSON text of `claims` with `overriding` applied.
    package static func json(of claims: some WritableClaims, overriding: JSONObject = JSONObject()) -> [UInt8] {
        var writer = ClaimsWriter(overrides: overriding)
        claims.write(to: &writer)
        return writer.finish()
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

    /// Writes the separator and `"name":` for a member's own name: a wire name spelled in the source, which never
    /// needs escaping, so it is copied without the escape scan (twenty-odd names a token).
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

    package mutating func member(_ name: String, _ value: String) {
        if begin(name) { JSONText.appendString(value, to: &bytes) }
    }

    package mutating func member(_ name: String, _ value: Int) {
        if begin(name) { JSONText.appendInt(value, to: &bytes) }
    }

    package mutating func member(_ name: String, _ value: Bool) {
        if begin(name) { bytes.append(contentsOf: (value ? "true" : "false").utf8) }
    }

    package mutating func member(_ name: String, _ value: [String]) {
        guard begin(name) else { return }
        bytes.append(UInt8(ascii: "["))
        for (i, s) in value.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONText.appendString(s, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    // Nil members are left out.
    package mutating func member(_ name: String, _ value: String?) { if let value { member(name, value) } }
    package mutating func member(_ name: String, _ value: Int?) { if let value { member(name, value) } }
    package mutating func member(_ name: String, _ value: Bool?) { if let value { member(name, value) } }
    package mutating func member(_ name: String, _ value: [String]?) { if let value { member(name, value) } }

    /// The finished object: the overrides no member took, in their order, and `}`.
    private mutating func finish() -> [UInt8] {
        for (name, value) in overrides where !overridden.contains(name) {
            appendName(name)
            value.write(into: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }
}
