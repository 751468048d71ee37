import MockIDPCore
import MockIDPText

/// The keys of a tenant's `externalId:` mapping, in print order.
package enum ExternalIDFields {
    package typealias ExternalIDField<Value: FieldValue> = Field<ExternalIDSettings, ExternalIDSettings, Value>

    package static let subdomain = ExternalIDField<String>(
        "subdomain", .name, "Served at {subdomain}.ciamlogin.com (default: the first label of the primary domain).",
        read: { decoder, node, origin, settings in
            guard let label = decoder.optionalString(node, at: origin)?.lowercasedIfNeeded() else { return }
            guard HostName.isValid(label), !label.utf8.contains(UInt8(ascii: ".")) else {
                decoder.report(origin, "must be one host-name label such as contosocustomers (letters, digits and -)")
                return
            }
            settings.subdomain = label
        },
        print: { $0.subdomain.isEmpty ? nil : .text($0.subdomain) })

    package static let customDomains = ExternalIDField<[String]>(
        "customDomains", .list(.hostName), "Custom URL domains, served as the ciamlogin host is.",
        read: { decoder, node, origin, settings in
            settings.customDomains = decoder.withoutRepeats(decoder.hostNames(node, at: origin), ignoringCase: true).map(\.value)
        },
        print: { $0.customDomains.isEmpty ? nil : .list($0.customDomains) })

    package static let signIn = ExternalIDField<ExternalIDSignInMethod>(
        "signIn", .choice(of: ExternalIDSignInMethod.self),
        "password (email and password, the default) or otp (email one-time passcode, no password).",
        read: { decoder, node, origin, settings in
            if let method: ExternalIDSignInMethod = decoder.choice(node, at: origin) { settings.signIn = method }
        },
        print: { .scalar($0.signIn.rawValue) })

    package static let signUp = ExternalIDField<Bool>(
        "signUp", .boolean, "Users may sign themselves up (default true).",
        read: { decoder, node, origin, settings in settings.signUp = decoder.bool(node, at: origin) ?? true },
        print: { .scalar($0.signUp ? "true" : "false") })

    package static let attributes = ExternalIDField<[String]>(
        "attributes", .list(.name),
        "Attributes sign-up asks for: Graph user property names (displayName, givenName, surname, jobTitle, streetAddress, city, state, postalCode, country) or extension_<appId>_<name>.",
        read: { decoder, node, origin, settings in
            let named = decoder.strings(node, at: origin).filter { attribute in
                guard SignUpAttribute(attribute.value) != nil else {
                    decoder.report(attribute.origin, "must be one of \(SignUpAttribute.builtIn.joined(separator: ", ")) or extension_<app id without dashes>_<name>")
                    return false
                }
                return true
            }
            settings.attributes = decoder.withoutRepeats(named, ignoringCase: false).map(\.value)
        },
        print: { $0.attributes.isEmpty ? nil : .list($0.attributes) })

    static let table = FieldTable(subdomain, customDomains, signIn, signUp, attributes)
}

extension ConfigurationDecoder {
    /// A tenant's `externalId:` (an empty mapping is an External ID tenant with every default); the subdomain is
    /// empty until the tenant is built, when it defaults to the primary domain's first label.
    mutating func externalID(_ node: YAMLNode, at origin: Origin) -> ExternalIDSettings? {
        var settings = ExternalIDSettings(subdomain: "")
        if node.isNull { return settings }
        guard let fields = fields(of: node, at: origin, table: ExternalIDFields.table) else { return nil }
        read(fields, ExternalIDFields.table, into: &settings)
        return settings
    }
}
