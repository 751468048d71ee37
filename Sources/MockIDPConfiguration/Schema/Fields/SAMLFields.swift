import MockIDPCore

/// The keys of an app's `saml:` mapping (docs/saml.md, "Configuration"), in print order.
package enum SAMLFields {
    package typealias SAMLField<Value: FieldValue> = Field<SAMLSettings, SAMLSettings, Value>

    package static let signing = choice(
        "signing", "What is signed: assertion (default), response or both.", \.signing, default: .assertion)

    package static let signingAlgorithm = choice(
        "signingAlgorithm", "The signature algorithm: sha256 (default) or sha1.", \.signingAlgorithm, default: .sha256)

    package static let nameIDFormat = choice(
        "nameIdFormat", "The NameID format; default: the one the request's NameIDPolicy asks for, else emailAddress.",
        \.nameIDFormat, default: .default)

    package static let nameIDSource = choice(
        "nameIdSource", "The user property the NameID holds (default userPrincipalName).", \.nameIDSource, default: .userPrincipalName)

    package static let logoutURL = SAMLField<String>(
        "logoutUrl", .uri, "Where LogoutResponses go.",
        read: { decoder, node, origin, settings in
            guard let url = decoder.optionalString(node, at: origin) else { return }
            guard let parts = URIReference(url), parts.scheme == "http" || parts.scheme == "https", !parts.hasFragment else {
                decoder.report(origin, "must be an absolute http or https URL without a fragment")
                return
            }
            settings.logoutURL = url
        },
        print: { .text($0.logoutURL) })

    package static let relayState = SAMLField<String>(
        "relayState", .text, "The RelayState of IdP-initiated sign-on.",
        read: { decoder, node, origin, settings in settings.relayState = decoder.optionalString(node, at: origin) },
        print: { .text($0.relayState) })

    package static let requireSignedRequests = SAMLField<Bool>(
        "requireSignedRequests", .boolean, "AuthnRequests must be signed (RSA-SHA256) by one of the app's certificates.",
        read: { decoder, node, origin, settings in settings.requireSignedRequests = decoder.bool(node, at: origin) ?? false },
        print: { $0.requireSignedRequests ? .scalar("true") : nil })

    package static let wsfedTokenType = choice(
        "wsfedTokenType", "The assertion inside a WS-Federation wresult: saml2 (default) or saml11.", \.wsfedTokenType, default: .saml2)

    package static let attributes = SAMLField<Nested>(
        "attributes", .map(.text), "Extra user claims (by name in the user's claims) sent as attributes of these names.",
        read: { decoder, node, origin, settings in settings.attributes = decoder.samlAttributes(node, at: origin) },
        print: { settings in
            settings.attributes.isEmpty ? nil : .mapping(settings.attributes.map { PrintedField(key: $0.claim, value: .scalar(YAMLScalar.text($0.attribute))) })
        })

    static let table = FieldTable(
        signing, signingAlgorithm, nameIDFormat, nameIDSource, logoutURL, relayState, requireSignedRequests, wsfedTokenType, attributes)

    /// A key holding one of `Choice`'s words, printed when not `defaultValue`.
    private static func choice<Choice: RawRepresentable & CaseIterable & Sendable & Equatable>(
        _ key: String, _ summary: String, _ path: WritableKeyPath<SAMLSettings, Choice> & Sendable, default defaultValue: Choice
    ) -> SAMLField<String> where Choice.RawValue == String {
        SAMLField<String>(
            key, .choice(of: Choice.self), summary,
            read: { decoder, node, origin, settings in
                if let value: Choice = decoder.choice(node, at: origin) { settings[keyPath: path] = value }
            },
            print: { $0[keyPath: path] == defaultValue ? nil : .scalar($0[keyPath: path].rawValue) })
    }
}

extension AppFields {
    /// The app's `saml:` mapping: it is a SAML 2.0 / WS-Federation enterprise app. Read after `identifierUris` and
    /// `certificates`, which it needs: the Identifier (entity ID) is one of the identifier URIs, and signed requests
    /// are checked against the certificates.
    package static let saml = AppField<Nested>(
        "saml", .mapping(SAMLFields.table.schema),
        "A SAML 2.0 / WS-Federation enterprise app: its entity ID is in identifierUris, its reply URLs in redirectUris.",
        read: { decoder, node, origin, entry in
            guard let settings = decoder.saml(node, at: origin) else { return }
            if entry.app.identifierURIs.isEmpty {
                decoder.report(origin, "a SAML app needs its Identifier (entity ID) in identifierUris")
            }
            if settings.requireSignedRequests && entry.app.certificates.isEmpty {
                decoder.report(origin, "requireSignedRequests needs the app's certificates, which verify the requests")
            }
            entry.app.saml = settings
        },
        print: { app in app.saml.map { .mapping(SAMLFields.table.printed($0)) } })
}

extension ConfigurationDecoder {
    /// An app's `saml:` (an empty mapping is Entra's defaults); nil when it is no mapping (reported).
    mutating func saml(_ node: YAMLNode, at origin: Origin) -> SAMLSettings? {
        if node.isNull { return SAMLSettings() }
        guard let fields = fields(of: node, at: origin, table: SAMLFields.table) else { return nil }
        var settings = SAMLSettings()
        read(fields, SAMLFields.table, into: &settings)
        return settings
    }

    /// `attributes:`: a mapping of claim names to non-empty attribute names.
    mutating func samlAttributes(_ node: YAMLNode, at origin: Origin) -> [(claim: String, attribute: String)] {
        if node.isNull { return [] }
        guard case .mapping(let mapping) = node.content else {
            report(origin, "must be a mapping of claim names to attribute names")
            return []
        }
        let container = origin.container(line: origin.line)
        return pairs(of: mapping, at: origin).compactMap { entry in
            let here = container.child(key: entry.key, line: entry.value.line)
            guard !entry.key.isEmpty else {
                report(origin.at(line: entry.keyNode.line), "a claim name cannot be empty")
                return nil
            }
            guard let name = requiredString(entry.value, at: here, reason: "must be an attribute name") else { return nil }
            return (entry.key, name)
        }
    }
}
