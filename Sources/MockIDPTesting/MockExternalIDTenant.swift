import MockIDPConfiguration
import MockIDPCore
import MockIDPJOSE

/// A Microsoft Entra External ID tenant for a test's configuration (`ConfigurationSource.externalID(_:)`): the keys
/// of a `tenants:` entry with `externalId:` (docs/external-id.md, "What is served"). Its users sign in with their
/// email address; in a `signIn: "otp"` tenant give them an empty password.
public struct MockExternalIDTenant: Sendable {
    /// `id`, the tenant GUID.
    public var id: String
    /// `externalId.subdomain`: served at `{subdomain}.ciamlogin.com`; the tenant's domain is `{subdomain}.onmicrosoft.com`.
    public var subdomain: String
    /// `name`.
    public var name: String?
    /// `externalId.customDomains`.
    public var customDomains: [String]
    /// `externalId.signIn`: `password` or `otp`.
    public var signIn: String
    /// `externalId.signUp`.
    public var signUp: Bool
    /// `externalId.attributes`: what sign-up asks for.
    public var attributes: [String]
    /// `users`.
    public var users: [MockUser]
    /// `apps` (give a native app `nativeAuth: true`).
    public var apps: [MockApp]

    /// A tenant with the given fields.
    public init(id: String, subdomain: String, name: String? = nil, customDomains: [String] = [], signIn: String = "password",
                signUp: Bool = true, attributes: [String] = [], users: [MockUser] = [], apps: [MockApp] = []) {
        self.id = id
        self.subdomain = subdomain
        self.name = name
        self.customDomains = customDomains
        self.signIn = signIn
        self.signUp = signUp
        self.attributes = attributes
        self.users = users
        self.apps = apps
    }

    /// The tenant as a configuration entry, keyed as in the configuration file.
    public var json: JSONValue {
        var externalID = JSONObject()
        externalID.set(ExternalIDFields.subdomain.key, subdomain)
        externalID.set(ExternalIDFields.customDomains.key, customDomains)
        externalID.set(ExternalIDFields.signIn.key, signIn)
        externalID.set(ExternalIDFields.signUp.key, signUp)
        externalID.set(ExternalIDFields.attributes.key, attributes)
        var tenant = JSONObject()
        tenant.set(TenantFields.id.key, id)
        tenant.set(TenantFields.domains.key, ["\(subdomain).onmicrosoft.com"])
        tenant.set(TenantFields.name.key, name)
        tenant[TenantFields.externalID.key] = .object(externalID)
        if !users.isEmpty { tenant[TenantFields.users.key] = .array(users.map(\.json)) }
        if !apps.isEmpty { tenant[TenantFields.apps.key] = .array(apps.map(\.json)) }
        return .object(tenant)
    }
}

extension ConfigurationSource {
    /// A configuration of these External ID tenants alone.
    public static func externalID(_ tenants: MockExternalIDTenant...) -> ConfigurationSource {
        .json(JSONValue.object(["tenants": .array(tenants.map(\.json))]).jsonString)
    }
}
