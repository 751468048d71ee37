import MockIDPCore

/// Writes a configuration as YAML (`mockidp config print`): the effective configuration in schema order,
/// defaults filled in (derived object IDs, client types, the cloud), loadable again by
/// `ConfigurationLoader.parse` with an equal result. Empty lists and unset optional values are left out.
/// Certificates are written as the paths they were read from, so parse the output with the same base
/// directory (a configuration merged from files in several directories may need its paths adjusted).
package enum ConfigurationWriter {
    /// The YAML text of `configuration`.
    package static func yaml(_ configuration: IdentityProviderConfiguration) -> String {
        var out = YAMLLines()
        out.line("tokens:")
        out.line("  lifetime: \(configuration.tokens.lifetime)")
        out.line("  refreshLifetime: \(configuration.tokens.refreshLifetime)")
        out.line("  codeLifetime: \(configuration.tokens.codeLifetime)")
        out.list("hosts", configuration.hosts, indent: "")
        guard !configuration.tenants.isEmpty else {
            out.line("tenants: []")
            return out.text
        }
        out.line("tenants:")
        for tenant in configuration.tenants { write(tenant, into: &out) }
        return out.text
    }

    private static func write(_ tenant: Tenant, into out: inout YAMLLines) {
        let indent = "    "
        out.line("  - id: " + YAMLScalar.text(tenant.id))
        out.list("domains", tenant.domains, indent: indent)
        out.scalar("name", tenant.name, indent: indent)
        out.line(indent + "cloud: \(tenant.cloud.rawValue)")
        if let b2c = tenant.b2c {
            out.line(indent + "b2c:")
            out.list("policies", b2c.policies, indent: indent + "  ")
            out.line(indent + "  policyClaim: \(b2c.policyClaim.rawValue)")
        }
        if !tenant.users.isEmpty {
            out.line(indent + "users:")
            for user in tenant.users { write(user, into: &out, indent: indent + "  ") }
        }
        if !tenant.apps.isEmpty {
            out.line(indent + "apps:")
            for app in tenant.apps { write(app, into: &out, indent: indent + "  ") }
        }
    }

    private static func write(_ user: User, into out: inout YAMLLines, indent: String) {
        let fields = indent + "  "
        out.line(indent + "- username: " + YAMLScalar.text(user.username))
        out.scalar("password", user.password, indent: fields)
        out.scalar("name", user.name, indent: fields)
        out.line(fields + "oid: " + YAMLScalar.text(user.objectID))
        out.scalar("email", user.email, indent: fields)
        out.list("groups", user.groups, indent: fields)
        out.list("roles", user.roles, indent: fields)
        if !user.claims.isEmpty {
            out.line(fields + "claims:")
            out.object(user.claims, indent: fields + "  ")
        }
        out.line(fields + "requireMfa: \(user.requireMFA)")
        out.scalar("homeTenant", user.homeTenantID, indent: fields)
    }

    private static func write(_ app: Application, into out: inout YAMLLines, indent: String) {
        let fields = indent + "  "
        out.line(indent + "- clientId: " + YAMLScalar.text(app.clientID))
        out.scalar("name", app.name, indent: fields)
        out.line(fields + "type: \(app.type.rawValue)")
        out.scalar("secret", app.secret, indent: fields)
        out.list("certificates", app.certificates.map(\.source), indent: fields)
        out.list("redirectUris", app.redirectURIs, indent: fields)
        out.list("identifierUris", app.identifierURIs, indent: fields)
        out.list("scopes", app.scopes, indent: fields)
        out.list("appRoles", app.appRoles, indent: fields)
        if !app.apiPermissions.isEmpty {
            out.line(fields + "apiPermissions:")
            for permission in app.apiPermissions {
                out.key(permission.resource, indent: fields + "  ", rest: " " + YAMLLines.flowList(permission.values))
            }
        }
        if let version = app.accessTokenVersion { out.line(fields + "accessTokenVersion: \(version)") }
        out.line(fields + "multiTenant: \(app.multiTenant)")
        if app.enableIDTokenIssuance { out.line(fields + "enableIdTokenIssuance: true") }
        if app.enableAccessTokenIssuance { out.line(fields + "enableAccessTokenIssuance: true") }
        if app.headlessSignIn { out.line(fields + "headlessSignIn: true") }
        if app.requirePKCE { out.line(fields + "requirePkce: true") }
        if app.foci { out.line(fields + "foci: true") }
    }
}

/// The lines of a YAML text being written, block style.
private struct YAMLLines {
    private var lines: [String] = []

    var text: String { lines.joined(separator: "\n") + "\n" }

    mutating func line(_ text: String) { lines.append(text) }

    /// `key: value` when `value` is set.
    mutating func scalar(_ key: String, _ value: String?, indent: String) {
        if let value { line(indent + key + ": " + YAMLScalar.text(value)) }
    }

    /// `key: [a, b]` when short, one `- item` a line otherwise; nothing when empty.
    mutating func list(_ key: String, _ values: [String], indent: String) {
        guard !values.isEmpty else { return }
        let flow = Self.flowList(values)
        if flow.count + indent.count + key.count <= 100 && !flow.contains("\"") {
            line(indent + key + ": " + flow)
        } else {
            line(indent + key + ":")
            for value in values { line(indent + "  - " + YAMLScalar.text(value)) }
        }
    }

    /// `[a, b]`, each item spelled for a flow collection.
    static func flowList(_ values: [String]) -> String {
        "[" + values.map { YAMLScalar.text($0, in: .flow) }.joined(separator: ", ") + "]"
    }

    /// A mapping key and what follows its colon. Keys longer than YAML's 1024-character limit for implicit
    /// keys take the explicit form (`? key` then `: value`).
    mutating func key(_ key: String, indent: String, rest: String) {
        let spelled = YAMLScalar.text(key)
        if spelled.count > 1000 {
            line(indent + "? " + spelled)
            line(indent + ":" + rest)
        } else {
            line(indent + spelled + ":" + rest)
        }
    }

    /// The members of a claims object, one a line, nested values indented below their key.
    mutating func object(_ object: ClaimSet, indent: String) {
        for (name, value) in object {
            switch value {
            case .object(let members) where !members.isEmpty:
                key(name, indent: indent, rest: "")
                self.object(members, indent: indent + "  ")
            case .array(let items) where !items.isEmpty:
                key(name, indent: indent, rest: "")
                array(items, indent: indent + "  ")
            default:
                key(name, indent: indent, rest: " " + Self.inline(value))
            }
        }
    }

    private mutating func array(_ items: [ClaimValue], indent: String) {
        for item in items {
            switch item {
            case .object(let members) where !members.isEmpty:
                line(indent + "-")
                object(members, indent: indent + "  ")
            case .array(let nested) where !nested.isEmpty:
                line(indent + "-")
                array(nested, indent: indent + "  ")
            default:
                line(indent + "- " + Self.inline(item))
            }
        }
    }

    /// A scalar or empty collection on one line.
    private static func inline(_ value: ClaimValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .int(let number): String(number)
        case .double(let number): number.isFinite ? String(number) : "null"
        case .string(let text): YAMLScalar.text(text)
        case .array: "[]"
        case .object: "{}"
        }
    }
}
