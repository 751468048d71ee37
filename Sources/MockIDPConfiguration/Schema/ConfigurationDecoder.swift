import MockIDPCore
import MockIDPText

/// Reads one document's node tree into a `ConfigurationOverlay`, reporting every value of the wrong
/// shape (unknown keys, wrong types, malformed GUIDs and host names, unreadable certificates) with its
/// file, line and path. Rules that relate values to each other are `ConfigurationValidator`'s.
struct ConfigurationDecoder {
    let file: String
    /// Certificate paths resolve against it: the directory of the configuration file.
    let baseDirectory: String
    var problems = ProblemList()
    var reportedDuplicateLines: Set<Int> = []
    /// The document's `tenants:` items composed in parts, while the document is decoded (see `YAMLDocument.listParts`).
    private var listParts: ListParts?

    init(file: String, baseDirectory: String) {
        self.file = file
        self.baseDirectory = baseDirectory
    }

    /// The overlay of a read document, after taking over the problems met while reading it.
    mutating func decode(_ document: YAMLDocument) -> ConfigurationOverlay {
        problems.append(contentsOf: document.problems)
        var overlay = ConfigurationOverlay()
        // An empty document (or one of comments only) is a configuration without tenants.
        if let root = document.root, !root.isNull {
            listParts = document.listParts
            defer { listParts = nil }
            overlay = withExtendedLifetime(document) { decodeRoot(root) }
        }
        for duplicate in document.duplicateKeys where !reportedDuplicateLines.contains(duplicate.line) {
            // A duplicate inside a part the schema does not read (under an unknown key): no path to give.
            problems.append(ConfigurationProblem(file: file, line: duplicate.line, path: "", reason: "duplicate key '\(duplicate.key)'"))
        }
        return overlay
    }

    private mutating func decodeRoot(_ root: YAMLNode) -> ConfigurationOverlay {
        var overlay = ConfigurationOverlay()
        let keys = RootFields.table.keys
        let listed = keys.dropLast().joined(separator: ", ") + (keys.count > 1 ? " and " : "") + (keys.last ?? "")
        guard let fields = fields(of: root, at: Origin(file: file, line: root.line, path: ""), table: RootFields.table,
                                  notAMapping: "the configuration must be a mapping with the keys \(listed)")
        else { return overlay }
        read(fields, RootFields.table, into: &overlay)
        return overlay
    }

    /// `tokens:`; an empty value sets nothing.
    mutating func tokens(_ node: YAMLNode, at origin: Origin) -> TokensOverlay {
        var tokens = TokensOverlay()
        if node.isNull { return tokens }
        guard let fields = fields(of: node, at: origin, table: TokenFields.table) else { return tokens }
        read(fields, TokenFields.table, into: &tokens)
        return tokens
    }

    /// Host names, lower-cased.
    mutating func hostNames(_ node: YAMLNode, at origin: Origin) -> [Sourced<String>] {
        strings(node, at: origin).compactMap { host in
            let name = host.value.lowercasedIfNeeded()
            guard HostName.isValid(name) else {
                report(host.origin, "must be a host name such as login.microsoftonline.us (no scheme, port or path)")
                return nil
            }
            return Sourced(value: name, origin: host.origin)
        }
    }

    /// The `tenants:` entries with a valid id, in order.
    mutating func tenants(_ node: YAMLNode, at origin: Origin) -> [TenantOverlay] {
        if let list = listParts, list.isStandIn(node) {
            listParts = nil
            return tenants(inParts: list, at: origin)
        }
        return tenants(items(node, at: origin, notAList: "must be a list of tenants"))
    }

    /// The entries of a list composed in parts, part by part on several cores, each part's tree freed as soon as
    /// its items are read.
    private mutating func tenants(inParts list: ListParts, at origin: Origin) -> [TenantOverlay] {
        let container = origin.container(line: origin.line)
        return tenants(list.count, minimumChunk: 1, capacity: list.itemCount) { decoder, parts, put in
            for part in parts {
                guard let tree = list.take(part), let root = tree.root else { continue }
                withExtendedLifetime(tree) {
                    guard case .sequence(let items) = YAMLNode(tree: tree, index: root).content else { return }
                    for (offset, item) in items.enumerated() {
                        let index = list.firstItems[part] + offset
                        if let tenant = decoder.tenant(item, at: container.child(index: index, line: item.line)) { put(index, tenant) }
                    }
                }
            }
        }
    }

    /// The `tenants:` entries with a valid id, in order. Each tenant reads only its own nodes, so a long list is
    /// read on several cores at once.
    mutating func tenants(_ items: [ListItem]) -> [TenantOverlay] {
        tenants(items.count, minimumChunk: 256, capacity: items.count) { decoder, range, put in
            for index in range {
                if let tenant = decoder.tenant(items[index].node, at: items[index].origin) { put(index, tenant) }
            }
        }
    }

    /// Tenants decoded over the ranges of `jobs` on several cores, each range with a decoder of its own that puts
    /// each tenant at its index in the list; problems come out in the order one pass would find them.
    private mutating func tenants(_ jobs: Int, minimumChunk: Int, capacity: Int,
                                  _ decode: (inout ConfigurationDecoder, Range<Int>, (Int, TenantOverlay) -> Void) -> Void)
        -> [TenantOverlay] {
        let (file, baseDirectory) = (file, baseDirectory)
        let (tenants, parts) = Parallel.compactMap(jobs, minimumChunk: minimumChunk, capacity: capacity) { range, put in
            var decoder = ConfigurationDecoder(file: file, baseDirectory: baseDirectory)
            // Escaping nothing: both closures are done with when this range returns.
            withoutActuallyEscaping(put) { put in decode(&decoder, range, put) }
            return (problems: decoder.problems, duplicateLines: decoder.reportedDuplicateLines)
        }
        for part in parts {
            problems.append(contentsOf: part.problems)
            reportedDuplicateLines.formUnion(part.duplicateLines)
        }
        return tenants
    }

    /// One `tenants:` entry; nil without a valid id.
    mutating func tenant(_ node: YAMLNode, at origin: Origin) -> TenantOverlay? {
        guard let fields = fields(of: node, at: origin, table: TenantFields.table) else { return nil }
        var tenant = TenantOverlay(origin: fields.origin, id: Sourced(value: "", origin: fields.origin(of: TenantFields.id)))
        read(fields, TenantFields.table, into: &tenant)
        // Without an id the tenant cannot be merged or served; its other problems are reported all the same.
        return tenant.id.value.isEmpty ? nil : tenant
    }

    /// A tenant's `b2c:`; nil without `policies`.
    mutating func b2c(_ node: YAMLNode, at origin: Origin) -> B2CSettings? {
        guard let fields = fields(of: node, at: origin, table: B2CFields.table) else { return nil }
        var settings = B2CSettings(policies: [])
        read(fields, B2CFields.table, into: &settings)
        return fields.has(B2CFields.policies) ? settings : nil
    }

    /// One `users:` entry (also what the control API decodes); `password` is required unless `passwordOptional`
    /// (the users of a `signIn: otp` External ID tenant sign in with mailed codes).
    mutating func userEntry(_ node: YAMLNode, at origin: Origin, tenantID: String, passwordOptional: Bool = false) -> UserEntry? {
        guard let fields = fields(of: node, at: origin, table: UserFields.table) else { return nil }
        if !passwordOptional, !fields.has(UserFields.password) { report(fields.origin, "missing required key 'password'") }
        let usernameOrigin = fields.origin(of: UserFields.username)
        var entry = UserEntry(user: User(username: "", password: "", objectID: ""), origin: fields.origin,
                              usernameOrigin: usernameOrigin, objectIDOrigin: usernameOrigin)
        read(fields, UserFields.table, into: &entry)
        guard !entry.user.username.isEmpty, passwordOptional || !entry.user.password.isEmpty else { return nil }
        if entry.user.objectID.isEmpty {
            entry.user.objectID = User.derivedObjectID(tenantID: tenantID, username: entry.user.username)
        }
        return entry
    }

    /// One `apps:` entry (also what the control API decodes).
    mutating func appEntry(_ node: YAMLNode, at origin: Origin) -> ApplicationEntry? {
        guard let fields = fields(of: node, at: origin, table: AppFields.table) else { return nil }
        var entry = ApplicationEntry(app: Application(clientID: ""), origin: fields.origin,
                                     clientIDOrigin: fields.origin(of: AppFields.clientID))
        read(fields, AppFields.table, into: &entry)
        // Without an explicit type: confidential when the app holds a credential (a federated one included).
        if entry.typeOrigin == nil {
            let holdsCredential = entry.app.secret != nil || entry.certificatesOrigin != nil || entry.federatedCredentialsOrigin != nil
            entry.app.type = holdsCredential ? .confidential : .public
        }
        return entry.app.clientID.isEmpty ? nil : entry
    }

    /// Scope and role names: non-empty, without spaces, each once.
    mutating func names(_ node: YAMLNode, at origin: Origin) -> [Sourced<String>] {
        let valid = strings(node, at: origin).filter { name in
            guard !name.value.isEmpty, !name.value.unicodeScalars.contains(where: { $0.isWhitespace || $0.value < 0x20 }) else {
                report(name.origin, "must be a name without spaces")
                return false
            }
            return true
        }
        return withoutRepeats(valid, ignoringCase: false)
    }

    mutating func apiPermissions(_ node: YAMLNode, at origin: Origin, into entry: inout ApplicationEntry) {
        if node.isNull { return }
        guard case .mapping(let mapping) = node.content else {
            report(origin, "must be a mapping of APIs (client id or identifier URI) to lists of scopes or app roles")
            return
        }
        let container = origin.container(line: origin.line)
        for pair in pairs(of: mapping, at: origin) {
            let resourceOrigin = container.child(key: pair.key, line: pair.keyNode.line)
            guard !pair.key.isEmpty else {
                report(resourceOrigin, "an API must be named by its client id or identifier URI")
                continue
            }
            let valuesOrigin = resourceOrigin.at(line: pair.value.isNull ? pair.keyNode.line : pair.value.line)
            let values = withoutRepeats(strings(pair.value, at: valuesOrigin), ignoringCase: false)
            entry.app.apiPermissions.append(APIPermission(resource: pair.key, values: values.map(\.value)))
            entry.permissionOrigins.append((resourceOrigin, values.map(\.origin)))
        }
    }

    /// A certificate file, read relative to the configuration's directory.
    mutating func certificate(_ path: Sourced<String>) -> ClientCertificate? {
        guard let bytes = file(path, kind: "certificate", limit: ConfigurationSchema.maximumCertificateBytes) else { return nil }
        guard YAMLDocument.firstInvalidUTF8Offset(bytes) == nil else {
            report(path.origin, "certificate '\(path.value)' is not a PEM text file")
            return nil
        }
        let pem = String(decoding: bytes, as: UTF8.self)
        if let problem = ClientCertificate.validationProblem(pem: pem) {
            report(path.origin, "certificate '\(path.value)' \(problem)")
            return nil
        }
        return ClientCertificate(source: path.value, pem: pem)
    }

    /// The bytes of a file the configuration names (a certificate, a key set), read relative to its directory;
    /// nil, and why reported as `<kind> '<path>': …`, when it cannot be read.
    mutating func file(_ path: Sourced<String>, kind: String, limit: Int) -> [UInt8]? {
        switch FileContents.read(FileContents.resolve(path.value, against: baseDirectory), limit: limit) {
        case .failure(let failure):
            report(path.origin, "\(kind) '\(path.value)': \(failure)")
            return nil
        case .success(let bytes):
            return bytes
        }
    }
}
