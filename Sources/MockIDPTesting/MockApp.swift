import MockIDPJOSE

/// An app registration for `MockIdentityProvider.addApp(_:tenant:)`: the keys of an app in the YAML
/// configuration. Fields left nil (or empty) are not sent, so the server's defaults apply.
public struct MockApp: Sendable {
    /// `clientId`, a GUID.
    public var clientID: String
    /// `name`.
    public var name: String?
    /// `type`: `public`, `spa` or `confidential` (default: confidential with a secret or certificate).
    public var type: String?
    /// `secret`, for confidential clients.
    public var secret: String?
    /// `certificates`: PEM files (paths the server can read) accepted for client assertions.
    public var certificates: [String]
    /// `redirectUris`.
    public var redirectURIs: [String]
    /// `identifierUris`: the names other apps use for this app as an API (`api://…`).
    public var identifierURIs: [String]
    /// `scopes`: delegated scopes this app exposes as an API.
    public var scopes: [String]
    /// `appRoles`: app roles this app defines as an API.
    public var appRoles: [String]
    /// `apiPermissions`: API (client ID or identifier URI) → scopes or app roles it may ask for, in order.
    public var apiPermissions: [(api: String, values: [String])]
    /// `accessTokenVersion`: 1 or 2, for access tokens issued for this app as an API.
    public var accessTokenVersion: Int?
    /// `multiTenant`.
    public var multiTenant: Bool?
    /// Further configuration keys (`enableIdTokenIssuance`, `headlessSignIn`, `requirePkce`, …) sent as given.
    public var settings: JSONObject

    /// An app with the given fields.
    public init(clientID: String, name: String? = nil, type: String? = nil, secret: String? = nil, certificates: [String] = [],
                redirectURIs: [String] = [], identifierURIs: [String] = [], scopes: [String] = [], appRoles: [String] = [],
                apiPermissions: [(api: String, values: [String])] = [], accessTokenVersion: Int? = nil, multiTenant: Bool? = nil,
                settings: JSONObject = [:]) {
        self.clientID = clientID
        self.name = name
        self.type = type
        self.secret = secret
        self.certificates = certificates
        self.redirectURIs = redirectURIs
        self.identifierURIs = identifierURIs
        self.scopes = scopes
        self.appRoles = appRoles
        self.apiPermissions = apiPermissions
        self.accessTokenVersion = accessTokenVersion
        self.multiTenant = multiTenant
        self.settings = settings
    }

    /// The JSON body of the control call, keyed as in the configuration file.
    public var json: JSONValue {
        var o: JSONObject = ["clientId": .string(clientID)]
        o.set("name", name)
        o.set("type", type)
        o.set("secret", secret)
        o.set("certificates", certificates)
        o.set("redirectUris", redirectURIs)
        o.set("identifierUris", identifierURIs)
        o.set("scopes", scopes)
        o.set("appRoles", appRoles)
        if !apiPermissions.isEmpty {
            o["apiPermissions"] = .object(JSONObject(apiPermissions.map { ($0.api, JSONValue.array($0.values.map { .string($0) })) }))
        }
        o.set("accessTokenVersion", accessTokenVersion)
        o.set("multiTenant", multiTenant)
        o.merge(settings)
        return .object(o)
    }
}
