import MockIDPCore

// Workload identity federation: an app's `federatedCredentials` and the top-level `trustedIssuers`. The rules
// follow Microsoft Learn's "Important considerations and restrictions for federated identity credentials":
// at most 20 credentials per app, `issuer` + `subject` unique on the app, each value at most 600 characters,
// compared exactly (case included).

/// The keys of an entry of an app's `federatedCredentials:`, in print order.
package enum FederatedCredentialFields {
    package typealias CredentialField<Value: FieldValue> = Field<FederatedCredentialEntry, FederatedCredential, Value>

    package static let issuer = CredentialField<String>(
        "issuer", .uri, "The external issuer, exactly as its tokens write iss (https, or http on loopback).", required: true,
        read: { decoder, node, origin, entry in
            entry.credential.issuer = decoder.issuerURL(node, at: origin) ?? ""
            entry.issuerOrigin = origin
        },
        print: { .text($0.issuer) })

    package static let subject = CredentialField<String>(
        "subject", .text, "The workload, exactly as its tokens write sub.", required: true,
        read: { decoder, node, origin, entry in
            entry.credential.subject = decoder.federationValue(node, at: origin) ?? ""
        },
        print: { .text($0.subject) })

    package static let audiences = CredentialField<[String]>(
        "audiences", .list(.text), "The values one of which the token's aud must hold (Entra's: api://AzureADTokenExchange).",
        required: true,
        read: { decoder, node, origin, entry in
            let listed = decoder.strings(node, at: origin).filter { audience in
                guard !audience.value.isEmpty, audience.value.count <= FederatedCredentialFields.maximumLength else {
                    decoder.report(audience.origin, "must be a non-empty string of at most \(FederatedCredentialFields.maximumLength) characters")
                    return false
                }
                return true
            }
            let audiences = decoder.withoutRepeats(listed, ignoringCase: false)
            if audiences.isEmpty && listed.isEmpty { decoder.report(origin, "must list at least one audience, such as api://AzureADTokenExchange") }
            entry.credential.audiences = audiences.map(\.value)
        },
        print: { .list($0.audiences) })

    static let table = FieldTable(issuer, subject, audiences)

    /// Entra: at most 20 federated identity credentials per app.
    static let maximumPerApp = 20
    /// Entra: `issuer`, `subject` and each audience hold at most 600 characters.
    static let maximumLength = 600
}

/// One entry of `federatedCredentials:` being decoded, with where its issuer was written.
package struct FederatedCredentialEntry {
    var credential = FederatedCredential(issuer: "", subject: "", audiences: [])
    var origin: Origin
    var issuerOrigin: Origin
}

extension FederatedCredentialEntry: ModelEntry {
    static var modelPath: FieldPath<FederatedCredentialEntry, FederatedCredential> { \.credential }
}

/// The keys of a `trustedIssuers:` entry, in print order.
package enum TrustedIssuerFields {
    package typealias IssuerField<Value: FieldValue> = Field<TrustedIssuerEntry, TrustedIssuer, Value>

    package static let issuer = IssuerField<String>(
        "issuer", .uri, "The issuer, exactly as its tokens write iss (https, or http on loopback).", required: true,
        read: { decoder, node, origin, entry in
            entry.issuer = Sourced(value: decoder.issuerURL(node, at: origin) ?? "", origin: origin)
        },
        print: { .text($0.issuer) })

    package static let jwks = IssuerField<String>(
        "jwks", .filePath, "A JWKS file with the issuer's RSA signing keys, relative to this configuration file.",
        read: { decoder, node, origin, entry in
            guard let path = decoder.requiredString(node, at: origin) else { return }
            entry.jwksOrigin = origin
            entry.keys = decoder.keySetFile(Sourced(value: path, origin: origin))
        },
        print: { issuer in
            if case .file(let source, _) = issuer.keys { return .text(source) }
            return nil
        })

    package static let jwksURI = IssuerField<String>(
        "jwksUri", .uri, "Or: the URL of the issuer's JWKS, fetched at start and again when a token names an unknown key.",
        read: { decoder, node, origin, entry in
            entry.jwksURIOrigin = origin
            if let url = decoder.issuerURL(node, at: origin) { entry.keys = .uri(url) }
        },
        print: { issuer in
            if case .uri(let url) = issuer.keys { return .text(url) }
            return nil
        })

    static let table = FieldTable(issuer, jwks, jwksURI)

    /// JWKS files larger than this are refused unread.
    static let maximumKeySetBytes = 1 << 20
}

/// One entry of `trustedIssuers:`, with the origins validation needs.
package struct TrustedIssuerEntry {
    var issuer: Sourced<String>
    /// Nil until `jwks` or `jwksUri` is read (and when the file cannot serve).
    var keys: TrustedIssuerKeys?
    var origin: Origin
    var jwksOrigin: Origin?
    var jwksURIOrigin: Origin?

    /// The issuer with its keys; nil when it has none.
    var trustedIssuer: TrustedIssuer? { keys.map { TrustedIssuer(issuer: issuer.value, keys: $0) } }
}

extension FederatedCredential: FieldListItem {
    package static func fieldJSON(of items: [FederatedCredential]) -> ClaimValue {
        .array(items.map { credential in
            var body = FieldBody()
            body.set(FederatedCredentialFields.issuer, credential.issuer)
            body.set(FederatedCredentialFields.subject, credential.subject)
            body.set(FederatedCredentialFields.audiences, credential.audiences)
            return .object(body.object)
        })
    }
}

extension ConfigurationDecoder {
    /// An app's `federatedCredentials:`: each entry complete, at most 20, `issuer` + `subject` once each.
    mutating func federatedCredentials(_ node: YAMLNode, at origin: Origin, into entry: inout ApplicationEntry) {
        let items = items(node, at: origin, notAList: "must be a list of federated credentials (issuer, subject, audiences)")
        entry.federatedCredentialsOrigin = items.isEmpty ? nil : origin
        if items.count > FederatedCredentialFields.maximumPerApp {
            report(origin, "lists \(items.count) federated credentials; Entra allows at most \(FederatedCredentialFields.maximumPerApp) per app")
        }
        var seen: [String: Origin] = [:]
        for item in items {
            guard let fields = fields(of: item.node, at: item.origin, table: FederatedCredentialFields.table) else { continue }
            var credential = FederatedCredentialEntry(origin: fields.origin, issuerOrigin: fields.origin(of: FederatedCredentialFields.issuer))
            read(fields, FederatedCredentialFields.table, into: &credential)
            let value = credential.credential
            guard !value.issuer.isEmpty, !value.subject.isEmpty, !value.audiences.isEmpty else { continue }
            // Entra: "The combination of issuer and subject must be unique on the app."
            let key = value.issuer + "\u{0}" + value.subject
            if let first = seen[key] {
                report(credential.origin, "issuer '\(value.issuer)' with subject '\(value.subject)' is already a federated credential of this app (\(first.reference(from: credential.origin)))")
                continue
            }
            seen[key] = credential.origin
            entry.app.federatedCredentials.append(value)
            entry.federatedCredentialIssuerOrigins.append(credential.issuerOrigin)
        }
    }

    /// `trustedIssuers:`, each entry with exactly one of `jwks` and `jwksUri`.
    mutating func trustedIssuers(_ node: YAMLNode, at origin: Origin) -> [TrustedIssuerEntry] {
        var entries: [TrustedIssuerEntry] = []
        var seen: [String: Origin] = [:]
        for item in items(node, at: origin, notAList: "must be a list of trusted issuers (issuer, and jwks or jwksUri)") {
            guard let fields = fields(of: item.node, at: item.origin, table: TrustedIssuerFields.table) else { continue }
            let issuerOrigin = fields.origin(of: TrustedIssuerFields.issuer)
            var entry = TrustedIssuerEntry(issuer: Sourced(value: "", origin: issuerOrigin), origin: fields.origin)
            read(fields, TrustedIssuerFields.table, into: &entry)
            switch (fields.has(TrustedIssuerFields.jwks), fields.has(TrustedIssuerFields.jwksURI)) {
            case (true, true):
                report(fields.origin, "give either jwks (a file) or jwksUri (a URL), not both")
                entry.keys = nil
            case (false, false):
                report(fields.origin, "needs the issuer's keys: jwks (a JWKS file) or jwksUri (its URL)")
            default:
                break
            }
            // Kept even without usable keys (that problem is reported): credentials naming the issuer are not
            // reported again as untrusted.
            guard !entry.issuer.value.isEmpty else { continue }
            if let first = seen[entry.issuer.value] {
                report(issuerOrigin, "issuer '\(entry.issuer.value)' is already trusted at \(first.reference(from: issuerOrigin))")
                continue
            }
            seen[entry.issuer.value] = issuerOrigin
            entries.append(entry)
        }
        return entries
    }

    /// An issuer or key-set URL: an absolute https URL with a host, or http on a loopback host (localhost,
    /// 127.0.0.1, [::1]); at most 600 characters, without a fragment or spaces around it.
    mutating func issuerURL(_ node: YAMLNode, at origin: Origin) -> String? {
        guard let text = federationValue(node, at: origin) else { return nil }
        guard let parts = URIReference(text), let host = parts.host, !host.isEmpty, !parts.hasFragment,
              parts.isHTTPS || parts.isLoopbackHTTP else {
            report(origin, "must be an absolute https URL (or http on localhost, 127.0.0.1 or [::1]), such as https://token.actions.githubusercontent.com")
            return nil
        }
        return text
    }

    /// A federation value: non-empty, at most 600 characters, without spaces around it (Entra blocks an
    /// exchange whose issuer has leading or trailing whitespace).
    mutating func federationValue(_ node: YAMLNode, at origin: Origin) -> String? {
        guard let text = requiredString(node, at: origin) else { return nil }
        guard text.count <= FederatedCredentialFields.maximumLength else {
            report(origin, "is longer than \(FederatedCredentialFields.maximumLength) characters")
            return nil
        }
        guard text.unicodeScalars.first?.properties.isWhitespace == false, text.unicodeScalars.last?.properties.isWhitespace == false else {
            report(origin, "must not begin or end with spaces")
            return nil
        }
        return text
    }

    /// A JWKS file, read relative to the configuration's directory: JSON holding at least one usable RSA key.
    mutating func keySetFile(_ path: Sourced<String>) -> TrustedIssuerKeys? {
        guard let bytes = file(path, kind: "key set", limit: TrustedIssuerFields.maximumKeySetBytes) else { return nil }
        switch TrustedIssuerKeys.file(source: path.value, bytes: bytes) {
        case .success(let keys): return keys
        case .failure(let problem):
            report(path.origin, "key set '\(path.value)' \(problem)")
            return nil
        }
    }
}
