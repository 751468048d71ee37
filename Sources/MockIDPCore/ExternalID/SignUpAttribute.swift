/// An attribute an External ID tenant's sign-up collects: one of Entra's built-in user attributes (by Graph's
/// name) or a custom one, `extension_<appId without dashes>_<name>` (Microsoft Learn, "Collect user attributes
/// during sign-up", and "Native authentication API reference": `attributes`, `required_attributes`).
public struct SignUpAttribute: Sendable, Equatable {
    /// The attribute's name as the native authentication API and Graph spell it.
    public var name: String

    /// The built-in attributes sign-up may collect, in the order Microsoft Entra admin center lists them.
    public static let builtIn = ["displayName", "givenName", "surname", "jobTitle", "streetAddress", "city", "state",
                                 "postalCode", "country"]

    /// The attribute called `name`, when sign-up can collect it.
    public init?(_ name: String) {
        guard Self.builtIn.contains(name) || Self.isCustom(name) else { return nil }
        self.name = name
    }

    /// `extension_` + 32 hexadecimal digits + `_` + a name of letters, digits and `_`.
    static func isCustom(_ name: String) -> Bool {
        let utf8 = Array(name.utf8)
        let prefix = Array("extension_".utf8)
        guard utf8.count > prefix.count + 33, utf8.starts(with: prefix) else { return false }
        let id = utf8[prefix.count..<prefix.count + 32]
        let rest = utf8[(prefix.count + 33)...]
        return id.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) || ($0 >= 0x41 && $0 <= 0x46) }
            && utf8[prefix.count + 32] == UInt8(ascii: "_")
            && rest.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7a) || $0 == UInt8(ascii: "_") }
    }

    /// The type `required_attributes` names (every collected attribute here is a string).
    public var type: String { "string" }

    /// The longest value accepted (Graph's user string properties hold at most 256 characters).
    public static let maximumLength = 256
}
