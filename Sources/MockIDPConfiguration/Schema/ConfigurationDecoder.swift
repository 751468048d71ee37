import MockIDPCore
import Yams

/// Reads one document's node tree into a `ConfigurationOverlay`, reporting every value of the wrong
/// shape (unknown keys, wrong types, malformed GUIDs and host names, unreadable certificates) with its
/// file, line and path. Rules that relate values to each other are `ConfigurationValidator`'s.
struct ConfigurationDecoder {
    let file: String
    /// Certificate paths resolve against it: the directory of the configuration file.
    let baseDirectory: String
    var problems = ProblemList()
    var reportedDuplicateLines: Set<Int> = []

    init(file: String, baseDirectory: String) {
        self.file = file
        self.baseDirectory = baseDirectory
    }

    /// The overlay of a read document, after taking over the problems met while reading it.
    mutating func decode(_ document: YAMLDocument) -> ConfigurationOverlay {
        problems.append(contentsOf: document.problems)
        var overlay = ConfigurationOverlay()
        // An empty document (or one of comments only) is a configuration without tenants.
        if let root = document.root, !root.isNull { overlay = decodeRoot(root) }
        for duplicate in document.duplicateKeys where !reportedDuplicateLines.contains(duplicate.line) {
            // A duplicate inside a part the schema does not read (under an unknown key): no path to give.
            problems.append(ConfigurationProblem(file: file, line: duplicate.line, path: "", reason: "duplicate key '\(duplicate.key)'"))
        }
        return overlay
    }

    private mutating func decodeRoot(_ root: Node) -> ConfigurationOverlay {
        var overlay = ConfigurationOverlay()
        guard let fields = fields(of: root, at: Origin(file: file, line: root.line, path: ""), known: ConfigurationSchema.rootKeys,
                                  notAMapping: "the configuration must be a mapping with the keys tokens, hosts and tenants")
        else { return overlay }
        if let node = fields.value("tokens") { overlay.tokens = tokens(node, at: fields.origin(of: "tokens")) }
        if let node = fields.value("hosts") {
            var seen = Set<String>()
            for host in hostNames(node, at: fields.origin(of: "hosts")) where seen.insert(host.value).inserted {
                overlay.hosts.append(host)
            }
        }
        if let node = fields.value("tenants") {
            for item in items(node, at: fields.origin(of: "tenants"), notAList: "must be a list of tenants") {
                if let tenant = tenant(item.node, at: item.origin) { overlay.tenants.append(tenant) }
            }
        }
        return overlay
    }

    private mutating func tokens(_ node: Node, at origin: Origin) -> TokensOverlay {
        var tokens = TokensOverlay()
        if node.isNull { return tokens }
        guard let fields = fields(of: node, at: origin, known: ConfigurationSchema.tokenKeys) else { return tokens }
        func lifetime(_ key: String, _ range: ClosedRange<Int>, _ decoder: inout ConfigurationDecoder) -> Sourced<Int>? {
            guard let node = fields.value(key) else { return nil }
            let origin = fields.origin(of: key)
            let reason = "must be a whole number of seconds from \(range.lowerBound) to \(range.upperBound) (ten years)"
            return decoder.integer(node, at: origin, in: range, reason: reason).map { Sourced(value: $0, origin: origin) }
        }
        tokens.lifetime = lifetime("lifetime", ConfigurationSchema.lifetimeRange, &self)
        tokens.refreshLifetime = lifetime("refreshLifetime", ConfigurationSchema.lifetimeRange, &self)
        tokens.codeLifetime = lifetime("codeLifetime", ConfigurationSchema.codeLifetimeRange, &self)
        return tokens
    }

    /// Host names, lower-cased.
    private mutating func hostNames(_ node: Node, at origin: Origin) -> [Sourced<String>] {
        strings(node, at: origin).compactMap { host in
            let name = host.value.lowercased()
            guard HostName.isValid(name) else {
                report(host.origin, "must be a host name such as login.microsoftonline.us (no scheme, port or path)")
                return nil
            }
            return Sourced(value: name, origin: host.origin)
        }
    }

    private mutating func tenant(_ node: Node, at origin: Origin) -> TenantOverlay? {
        guard let fields = fields(of: node, at: origin, known: ConfigurationSchema.tenantKeys, required: ["id"]) else { return nil }
        let id = fields.value("id").flatMap { guid($0, at: fields.origin(of: "id"), required: true) }
        var tenant = TenantOverlay(origin: fields.origin, id: Sourced(value: id ?? "", origin: fields.origin(of: "id")))
        if let node = fields.value("domains") {
            tenant.domains = withoutRepeats(hostNames(node, at: fields.origin(of: "domains")), ignoringCase: true)
        }
        if let node = fields.value("name") {
            tenant.name = optionalString(node, at: fields.origin(of: "name")).map { Sourced(value: $0, origin: fields.origin(of: "name")) }
        }
        if let node = fields.value("cloud") {
            let cloud: CloudName? = choice(node, at: fields.origin(of: "cloud"))
            tenant.cloud = cloud.map { Sourced(value: $0, origin: fields.origin(of: "cloud")) }
        }
        if let node = fields.value("b2c") {
            tenant.b2c = b2c(node, at: fields.origin(of: "b2c")).map { Sourced(value: $0, origin: fields.origin(of: "b2c")) }
        }
        if let node = fields.value("users") {
            for item in items(node, at: fields.origin(of: "users"), notAList: "must be a list of users") {
                if let user = userEntry(item.node, at: item.origin, tenantID: id ?? "") { tenant.users.append(user) }
            }
        }
        if let node = fields.value("apps") {
            for item in items(node, at: fields.origin(of: "apps"), notAList: "must be a list of apps") {
                if let app = appEntry(item.node, at: item.origin) { tenant.apps.append(app) }
            }
        }
        // Without an id the tenant cannot be merged or served; its other problems are reported all the same.
        return id == nil ? nil : tenant
    }

    private mutating func b2c(_ node: Node, at origin: Origin) -> B2CSettings? {
        guard let fields = fields(of: node, at: origin, known: ConfigurationSchema.b2cKeys, required: ["policies"]) else { return nil }
        var policies: [Sourced<String>] = []
        if let node = fields.value("policies") {
            let listed = strings(node, at: fields.origin(of: "policies"))
            if listed.isEmpty && (node.isNull || node.sequenceCount == 0) {
                report(fields.origin(of: "policies"), "must list at least one policy")
            }
            let wellFormed = listed.filter { policy in
                guard !policy.value.isEmpty,
                      policy.value.unicodeScalars.allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit || $0 == "_" || $0 == "-" })
                else {
                    report(policy.origin, "must be a policy name such as B2C_1_signupsignin (letters, digits, _ and -)")
                    return false
                }
                return true
            }
            policies = withoutRepeats(wellFormed, ignoringCase: true)
        }
        var settings = B2CSettings(policies: policies.map(\.value))
        if let node = fields.value("policyClaim"), let claim: PolicyClaim = choice(node, at: fields.origin(of: "policyClaim")) {
            settings.policyClaim = claim
        }
        return fields.value("policies") == nil ? nil : settings
    }

    /// One `users:` entry (also what the control API decodes).
    mutating func userEntry(_ node: Node, at origin: Origin, tenantID: String) -> UserEntry? {
        guard let fields = fields(of: node, at: origin, known: ConfigurationSchema.userKeys, required: ["username", "password"])
        else { return nil }
        let usernameOrigin = fields.origin(of: "username")
        let username = fields.value("username").flatMap { node -> String? in
            let reason = "must be a user name such as alice@contoso.onmicrosoft.com (no spaces)"
            guard let name = requiredString(node, at: usernameOrigin, reason: reason) else { return nil }
            guard !name.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 }) else {
                report(usernameOrigin, reason)
                return nil
            }
            return name
        }
        let password = fields.value("password").flatMap { requiredString($0, at: fields.origin(of: "password")) }
        var user = User(username: username ?? "", password: password ?? "", objectID: "")
        user.name = fields.value("name").flatMap { optionalString($0, at: fields.origin(of: "name")) }
        let oid = fields.value("oid").flatMap { guid($0, at: fields.origin(of: "oid")) }
        user.email = fields.value("email").flatMap { optionalString($0, at: fields.origin(of: "email")) }
        if let node = fields.value("groups") {
            user.groups = strings(node, at: fields.origin(of: "groups")).compactMap { group in
                guard GUID.isValid(group.value) else {
                    report(group.origin, "must be a GUID (a group's object id)")
                    return nil
                }
                return group.value.lowercased()
            }
        }
        if let node = fields.value("roles") { user.roles = names(node, at: fields.origin(of: "roles")).map(\.value) }
        if let node = fields.value("claims") { user.claims = claims(node, at: fields.origin(of: "claims")) }
        if let node = fields.value("requireMfa") { user.requireMFA = bool(node, at: fields.origin(of: "requireMfa")) ?? false }
        user.homeTenantID = fields.value("homeTenant").flatMap { guid($0, at: fields.origin(of: "homeTenant")) }
        guard let username, password != nil else { return nil }
        user.objectID = oid ?? User.derivedObjectID(tenantID: tenantID, username: username)
        return UserEntry(user: user, origin: fields.origin, usernameOrigin: usernameOrigin,
                         objectIDOrigin: oid == nil ? usernameOrigin : fields.origin(of: "oid"),
                         homeTenantOrigin: user.homeTenantID == nil ? nil : fields.origin(of: "homeTenant"))
    }

    /// One `apps:` entry (also what the control API decodes).
    mutating func appEntry(_ node: Node, at origin: Origin) -> ApplicationEntry? {
        guard let fields = fields(of: node, at: origin, known: ConfigurationSchema.appKeys, required: ["clientId"]) else { return nil }
        let clientID = fields.value("clientId").flatMap { guid($0, at: fields.origin(of: "clientId"), required: true) }
        var entry = ApplicationEntry(app: Application(clientID: clientID ?? ""), origin: fields.origin,
                                     clientIDOrigin: fields.origin(of: "clientId"))
        entry.app.name = fields.value("name").flatMap { optionalString($0, at: fields.origin(of: "name")) }
        let explicitType: ClientType? = fields.value("type").flatMap { choice($0, at: fields.origin(of: "type")) }
        if let node = fields.value("secret"), !node.isNull {
            entry.app.secret = requiredString(node, at: fields.origin(of: "secret"))
            entry.secretOrigin = entry.app.secret == nil ? nil : fields.origin(of: "secret")
        }
        var declaresCertificates = false
        if let node = fields.value("certificates") {
            let paths = strings(node, at: fields.origin(of: "certificates"))
            declaresCertificates = !paths.isEmpty
            entry.certificatesOrigin = declaresCertificates ? fields.origin(of: "certificates") : nil
            entry.app.certificates = paths.compactMap { certificate($0) }
        }
        if let node = fields.value("redirectUris") {
            let uris = withoutRepeats(strings(node, at: fields.origin(of: "redirectUris")), ignoringCase: false)
            entry.app.redirectURIs = uris.map(\.value)
            entry.redirectURIOrigins = uris.map(\.origin)
        }
        if let node = fields.value("identifierUris") {
            let uris = withoutRepeats(strings(node, at: fields.origin(of: "identifierUris")), ignoringCase: true)
            entry.app.identifierURIs = uris.map(\.value)
            entry.identifierURIOrigins = uris.map(\.origin)
        }
        if let node = fields.value("scopes") { entry.app.scopes = names(node, at: fields.origin(of: "scopes")).map(\.value) }
        if let node = fields.value("appRoles") { entry.app.appRoles = names(node, at: fields.origin(of: "appRoles")).map(\.value) }
        if let node = fields.value("apiPermissions") { apiPermissions(node, at: fields.origin(of: "apiPermissions"), into: &entry) }
        if let node = fields.value("accessTokenVersion") {
            entry.app.accessTokenVersion = integer(node, at: fields.origin(of: "accessTokenVersion"), in: 1...2, reason: "must be 1 or 2")
        }
        if let node = fields.value("multiTenant") { entry.app.multiTenant = bool(node, at: fields.origin(of: "multiTenant")) ?? false }
        if let node = fields.value("foci"), bool(node, at: fields.origin(of: "foci")) == true {
            entry.app.foci = true
            entry.fociOrigin = fields.origin(of: "foci")
        }
        for key in ["enableIdTokenIssuance", "enableAccessTokenIssuance", "headlessSignIn", "requirePkce"] {
            guard let node = fields.value(key) else { continue }
            let value = bool(node, at: fields.origin(of: key)) ?? false
            switch key {
            case "enableIdTokenIssuance": entry.app.enableIDTokenIssuance = value
            case "enableAccessTokenIssuance": entry.app.enableAccessTokenIssuance = value
            case "requirePkce": entry.app.requirePKCE = value
            default: entry.app.headlessSignIn = value
            }
        }
        if let explicitType {
            entry.app.type = explicitType
            entry.typeOrigin = fields.origin(of: "type")
        } else {
            entry.app.type = entry.app.secret != nil || declaresCertificates ? .confidential : .public
        }
        return clientID == nil ? nil : entry
    }

    /// Scope and role names: non-empty, without spaces, each once.
    private mutating func names(_ node: Node, at origin: Origin) -> [Sourced<String>] {
        let valid = strings(node, at: origin).filter { name in
            guard !name.value.isEmpty, !name.value.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 }) else {
                report(name.origin, "must be a name without spaces")
                return false
            }
            return true
        }
        return withoutRepeats(valid, ignoringCase: false)
    }

    private mutating func apiPermissions(_ node: Node, at origin: Origin, into entry: inout ApplicationEntry) {
        if node.isNull { return }
        guard case .mapping(let mapping) = node else {
            report(origin, "must be a mapping of APIs (client id or identifier URI) to lists of scopes or app roles")
            return
        }
        for pair in pairs(of: mapping, at: origin) {
            let resourceOrigin = Origin(file: file, line: pair.keyNode.line, path: DocumentPath.appending(key: pair.key, to: origin.path))
            guard !pair.key.isEmpty else {
                report(resourceOrigin, "an API must be named by its client id or identifier URI")
                continue
            }
            let valuesOrigin = Origin(file: file, line: pair.value.isNull ? pair.keyNode.line : pair.value.line, path: resourceOrigin.path)
            let values = withoutRepeats(strings(pair.value, at: valuesOrigin), ignoringCase: false)
            entry.app.apiPermissions.append(APIPermission(resource: pair.key, values: values.map(\.value)))
            entry.permissionOrigins.append((resourceOrigin, values.map(\.origin)))
        }
    }

    /// A certificate file, read relative to the configuration's directory.
    private mutating func certificate(_ path: Sourced<String>) -> ClientCertificate? {
        let location = FileContents.resolve(path.value, against: baseDirectory)
        switch FileContents.read(location, limit: ConfigurationSchema.maximumCertificateBytes) {
        case .failure(let failure):
            report(path.origin, "certificate '\(path.value)': \(failure)")
            return nil
        case .success(let bytes):
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
    }
}
