import MockIDPCore

/// The keys of a tenant's `signIn:` mapping, in print order.
package enum SignInFields {
    package typealias SignInField<Value: FieldValue> = Field<SignInSettings, SignInSettings, Value>

    package static let anyUser = SignInField<Bool>(
        "anyUser", .boolean,
        "Any user name in the tenant's domains signs in with any password, the user made on the fly (default false).",
        read: { decoder, node, origin, settings in settings.anyUser = decoder.bool(node, at: origin) ?? false },
        print: { .scalar($0.anyUser ? "true" : "false") })

    static let table = FieldTable(anyUser)
}

extension ConfigurationDecoder {
    /// A tenant's `signIn:`; nil when it is no mapping (reported).
    mutating func signIn(_ node: YAMLNode, at origin: Origin) -> SignInSettings? {
        if node.isNull { return nil }
        guard let fields = fields(of: node, at: origin, table: SignInFields.table) else { return nil }
        var settings = SignInSettings()
        read(fields, SignInFields.table, into: &settings)
        return settings
    }
}
