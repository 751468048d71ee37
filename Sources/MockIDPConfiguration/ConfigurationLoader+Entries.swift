import MockIDPCore

/// One user or app given at run time (the control API's bodies): decoded with the same keys and rules as an
/// entry of the configuration file, and validated together with the configuration it joins, so a typo in a
/// control call fails as the same typo in YAML would.
extension ConfigurationLoader {
    /// Decodes `text` (JSON, or YAML) as a `users:` entry of the tenant `tenantID` and validates `configuration`
    /// with it added (or replacing the user with the same username). `fileName` names the text in problems.
    package static func decodeUser(text: String, fileName: String, tenantID: String,
                                  joining configuration: IdentityProviderConfiguration) throws(ConfigurationError) -> User {
        try decodeEntry(text: text, fileName: fileName, tenantID: tenantID, joining: configuration,
                        decode: { decoder, root, origin in
                            let tenant = configuration.tenants.first { $0.id == tenantID }
                            return decoder.userEntry(root, at: origin, tenantID: tenantID,
                                                     passwordOptional: tenant?.externalID?.signIn == .otp)
                        },
                        add: { tenant, entry in
                            tenant.users.removeAll { $0.user.username.lowercased() == entry.user.username.lowercased() }
                            tenant.users.append(entry)
                        }).user
    }

    /// Decodes `text` (JSON, or YAML) as an `apps:` entry of the tenant `tenantID` and validates `configuration`
    /// with it added (or replacing the app with the same client ID). Certificate paths resolve against `baseDirectory`.
    package static func decodeApp(text: String, fileName: String, baseDirectory: String, tenantID: String,
                                 joining configuration: IdentityProviderConfiguration) throws(ConfigurationError) -> Application {
        try decodeEntry(text: text, fileName: fileName, baseDirectory: baseDirectory, tenantID: tenantID, joining: configuration,
                        decode: { decoder, root, origin in decoder.appEntry(root, at: origin) },
                        add: { tenant, entry in
                            tenant.apps.removeAll { $0.app.clientID.lowercased() == entry.app.clientID.lowercased() }
                            tenant.apps.append(entry)
                        }).app
    }

    /// Decodes `text` (JSON, or YAML) as a `managedIdentities:` entry of the tenant `tenantID` and validates
    /// `configuration` with it added (or replacing the identity with the same client ID).
    package static func decodeManagedIdentity(text: String, fileName: String, tenantID: String,
                                             joining configuration: IdentityProviderConfiguration) throws(ConfigurationError) -> ManagedIdentity {
        try decodeEntry(text: text, fileName: fileName, tenantID: tenantID, joining: configuration,
                        decode: { decoder, root, origin in decoder.managedIdentityEntry(root, at: origin, tenantID: tenantID) },
                        add: { tenant, entry in
                            let clientID = entry.identity.clientID.lowercased()
                            tenant.managedIdentities.removeAll { $0.identity.clientID.lowercased() == clientID }
                            tenant.managedIdentities.append(entry)
                        }).identity
    }

    /// Decodes `text` (JSON, or YAML) as a `groups:` entry of the tenant `tenantID` and validates `configuration`
    /// with it added (or replacing the group with the same id).
    package static func decodeGroup(text: String, fileName: String, tenantID: String,
                                   joining configuration: IdentityProviderConfiguration) throws(ConfigurationError) -> Group {
        try decodeEntry(text: text, fileName: fileName, tenantID: tenantID, joining: configuration,
                        decode: { decoder, root, origin in decoder.groupEntry(root, at: origin) },
                        add: { tenant, entry in
                            tenant.groups.removeAll { $0.group.id == entry.group.id }
                            tenant.groups.append(entry)
                        }).group
    }

    private static func decodeEntry<Entry>(
        text: String, fileName: String, baseDirectory: String = ".", tenantID: String,
        joining configuration: IdentityProviderConfiguration,
        decode: (inout ConfigurationDecoder, YAMLNode, Origin) -> Entry?,
        add: (inout TenantOverlay, Entry) -> Void
    ) throws(ConfigurationError) -> Entry {
        let document = YAMLDocument.read(text: text, file: fileName)
        var decoder = ConfigurationDecoder(file: fileName, baseDirectory: baseDirectory)
        var problems = ProblemList()
        problems.append(contentsOf: document.problems)
        var entry: Entry?
        if let root = document.root, !root.isNull {
            entry = withExtendedLifetime(document) { decode(&decoder, root, Origin(file: fileName, line: root.line, path: "")) }
            problems.append(contentsOf: decoder.problems)
        } else if problems.isEmpty {
            problems.append(ConfigurationProblem(file: fileName, line: 1, path: "", reason: "must be an object"))
        }
        for duplicate in document.duplicateKeys {
            problems.append(ConfigurationProblem(file: fileName, line: duplicate.line, path: "", reason: "duplicate key '\(duplicate.key)'"))
        }
        guard problems.isEmpty, let entry else {
            throw ConfigurationError(problems: problems.isEmpty
                ? [ConfigurationProblem(file: fileName, line: 1, path: "", reason: "is not a valid entry")] : problems.sorted(fileOrder: [fileName]))
        }
        var overlay = ConfigurationOverlay(configuration)
        guard let index = overlay.tenants.firstIndex(where: { $0.id.value == tenantID }) else {
            throw ConfigurationError(problems: [ConfigurationProblem(file: fileName, line: 0, path: "", reason: "no tenant '\(tenantID)'")])
        }
        add(&overlay.tenants[index], entry)
        let validation = ConfigurationValidator.problems(in: overlay)
        guard validation.isEmpty else { throw ConfigurationError(problems: validation) }
        return entry
    }
}
