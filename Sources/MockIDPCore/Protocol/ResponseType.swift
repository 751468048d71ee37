/// The parts of an authorize response (`response_type`, space-separated): a code, an ID token, an access token.
package enum ResponseType: String, Sendable, CaseIterable {
    case code
    case idToken = "id_token"
    case token

    /// The set `text` names, or nil when it names an unknown part or none at all.
    package static func set(_ text: String) -> Set<ResponseType>? {
        var types: Set<ResponseType> = []
        for part in text.split(separator: " ") {
            guard let type = ResponseType(rawValue: String(part)) else { return nil }
            types.insert(type)
        }
        return types.isEmpty ? nil : types
    }
}
