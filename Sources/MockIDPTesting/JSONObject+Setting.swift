import MockIDPJOSE

/// Setting the keys of a control call's body that no field table names (faults, extra claims).
extension JSONObject {
    /// Sets `key` to a string when there is one.
    mutating func set(_ key: String, _ value: String?) { if let value { self[key] = .string(value) } }
    /// Sets `key` to a list of strings when it is not empty.
    mutating func set(_ key: String, _ values: [String]) { if !values.isEmpty { self[key] = .array(values.map { .string($0) }) } }
    /// Sets `key` to a Boolean when there is one.
    mutating func set(_ key: String, _ value: Bool?) { if let value { self[key] = .bool(value) } }
    /// Sets `key` to an integer when there is one.
    mutating func set(_ key: String, _ value: Int?) { if let value { self[key] = .int(value) } }
}
