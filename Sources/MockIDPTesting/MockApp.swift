import MockIDPConfiguration
import MockIDPCore
import MockIDPJOSE

/// An app registration for `MockIdentityProvider.addApp(_:tenant:)`: the keys of an app in the YAML
/// configuration. Fields left nil (or empty) are not sent, so the server's defaults apply.
public struct MockApp: Sendable {
    /// `clientId`, a GUID.
    public var clientID: String
    /// `name`.
    public var name: String?
    /// `type`: `public`, `spa` or `confidential` (default: confidential with a secret, certificate or federated credential).
    public var type: String?
    /// `secret`, for confidential clients.
    public var secret: String?
    /// `certificates`: PEM files (paths the server can read) accepted for client assertions.
    public var certificates: [String]
    /// `federatedCredentials`: external tokens (issuer, subject, audiences) accepted as client assertions; an app
    /// with one is confidential by default.
    public var federatedCredentials: [MockFederatedCredential]
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
    /// `optionalClaims`: the optional claims (`.email`, `.upn`, `.ipAddress`, …) added to the app's ID tokens and
    /// to access tokens issued for it as an API, as the app manifest's.
    public var optionalClaims: MockOptionalClaims
    /// `nativeAuth`: the app may use External ID's native authentication API.
    public var nativeAuth: Bool?
    /// Further configuration keys (`enableIdTokenIssuance`, `headlessSignIn`, `requirePkce`, …) sent as given.
    public var settings: JSONObject

    /// An app with the given fields.
    public init(clientID: String, name: String? = nil, type: String? = nil, secret: String? = nil, certificates: [String] = [],
                federatedCredentials: [MockFederatedCredential] = [], redirectURIs: [String] = [], identifierURIs: [String] = [], scopes: [String] = [], appRoles: [String] = [],
                apiPermissions: [(api: String, values: [String])] = [], accessTokenVersion: Int? = nil, multiTenant: Bool? = nil,
                optionalClaims: MockOptionalClaims = MockOptionalClaims(), nativeAuth: Bool? = nil, settings: JSONObject = [:]) {
        self.optionalClaims = optionalClaims
        self.nativeAuth = nativeAuth
        self.clientID = clientID
        self.name = name
        self.type = type
        self.secret = secret
        self.certificates = certificates
        self.federatedCredentials = federatedCredentials
        self.redirectURIs = redirectURIs
        self.identifierURIs = identifierURIs
        self.scopes = scopes
        self.appRoles = appRoles
        self.apiPermissions = apiPermissions
        self.accessTokenVersion = accessTokenVersion
        self.multiTenant = multiTenant
        self.settings = settings
    }

    /// The JSON body of the control call, keyed as in the configuration file (the keys are `AppFields`'),
    /// `settings` last.
    public var json: JSONValue {
        var body = FieldBody()
        body.set(AppFields.clientID, clientID)
        body.set(AppFields.name, name)
        body.set(AppFields.type, word: type)
        body.set(AppFields.secret, secret)
        body.set(AppFields.certificates, certificates)
        body.set(AppFields.federatedCredentials, federatedCredentials)
        body.set(AppFields.redirectURIs, redirectURIs)
        body.set(AppFields.identifierURIs, identifierURIs)
        body.set(AppFields.scopes, scopes)
        body.set(AppFields.appRoles, appRoles)
        body.set(AppFields.apiPermissions, apiPermissions.map { APIPermission(resource: $0.api, values: $0.values) })
        body.set(AppFields.accessTokenVersion, accessTokenVersion)
        body.set(AppFields.multiTenant, multiTenant)
        body.set(AppFields.optionalClaims, optionalClaims)
        body.set(AppFields.nativeAuth, nativeAuth)
        body.merge(settings)
        return .object(body.object)
    }
}

/// A federated credential of a `MockApp` (`federatedCredentials:` in the configuration): a token whose `iss` is
/// `issuer`, whose `sub` is `subject` and whose `aud` names one of `audiences` is accepted as the app's client
/// assertion. The issuer must be a `trustedIssuers` entry of the server's configuration, or the v2 issuer of one of
/// its tenants (`https://<host>/<tenant id>/v2.0`).
public typealias MockFederatedCredential = FederatedCredential

/// The optional claims of a `MockApp` (`optionalClaims:` in the configuration): the claims added to the app's ID
/// tokens (`idToken`) and to access tokens for it as an API (`accessToken`), as the app manifest's.
public typealias MockOptionalClaims = OptionalClaims

/// One optional claim of a `MockOptionalClaims` list (`.email`, `.userPrincipalName` for `upn`, `.ipAddress` for
/// `ipaddr`, …), by Entra's claim name as its raw value.
public typealias MockOptionalClaim = OptionalClaim
