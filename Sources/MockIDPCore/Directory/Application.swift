import MockIDPJOSE

/// An app registration: a client that asks for tokens, an API that tokens are for, or both.
public struct Application: Sendable, Equatable {
    /// The application (client) ID, lower-case GUID.
    public var clientID: String
    /// The display name (the sign-in and consent pages show it).
    public var name: String?
    /// Public, confidential or single-page app.
    public var type: ClientType
    /// The client secret of a confidential app.
    public var secret: String?
    /// Public certificates accepted for client assertions.
    public var certificates: [ClientCertificate]
    /// External tokens accepted as client assertions (workload identity federation).
    public var federatedCredentials: [FederatedCredential] = []
    /// Registered redirect URIs (loopback ones match on any port, as Entra's do).
    public var redirectURIs: [String]
    /// The names other apps use for this API (`api://…`).
    public var identifierURIs: [String]
    /// Delegated scopes this app exposes as an API.
    public var scopes: [String]
    /// App roles this app defines as an API.
    public var appRoles: [String]
    /// What this app may call: an API (client ID or identifier URI) and the scopes or roles granted on it.
    public var apiPermissions: [APIPermission]
    /// The version of access tokens issued for this app as an API. Entra: an unset
    /// `accessTokenAcceptedVersion` means version 1 tokens.
    public var accessTokenVersion: Int?
    /// Whether other tenants may use the app (it gets a service principal anywhere).
    public var multiTenant: Bool
    /// Entra's "ID tokens" implicit-grant setting: `response_type` may include `id_token`.
    public var enableIDTokenIssuance: Bool = false
    /// Entra's "Access tokens" implicit-grant setting: `response_type` may include `token`.
    public var enableAccessTokenIssuance: Bool = false
    /// For CI: an authorize request whose `login_hint` names a user of the tenant signs that user in with no page
    /// (unless `prompt=login`, `select_account` or `consent`).
    public var headlessSignIn: Bool = false
    /// Authorize requests must carry a PKCE `code_challenge` (always so for `spa` apps).
    public var requirePKCE: Bool = false
    /// Delegated permissions need the user's consent: the consent page after sign-in, or AADSTS65001 where no page
    /// can be shown (password, refresh token, on-behalf-of, `prompt=none`). When false, as an app whose permissions
    /// an administrator consented to for the whole tenant, users are never asked.
    public var consentRequired: Bool = false
    /// The app may use External ID's native authentication API (the portal's "Enable native authentication").
    public var nativeAuth: Bool = false
    /// Entra's family of client IDs: a refresh token issued to a family app is redeemable by every other family
    /// public client of the tenant, and token responses say `"foci": "1"`.
    public var foci: Bool = false
    /// Which groups this app's ID tokens, and access tokens for it as an API, carry (the manifest's `groupMembershipClaims`).
    public var groupMembershipClaims: GroupMembershipClaims = .none
    /// The manifest's `optionalClaims`: claims added to this app's ID tokens, and to access tokens for it as an API.
    public var optionalClaims = OptionalClaims()
    /// Present for a SAML 2.0 / WS-Federation enterprise app (docs/saml.md, "Configuration").
    public var saml: SAMLSettings?

    /// An app registration; only `clientID` is required.
    public init(clientID: String, name: String? = nil, type: ClientType = .confidential, secret: String? = nil,
                certificates: [ClientCertificate] = [], redirectURIs: [String] = [], identifierURIs: [String] = [],
                scopes: [String] = [], appRoles: [String] = [], apiPermissions: [APIPermission] = [],
                accessTokenVersion: Int? = nil, multiTenant: Bool = false) {
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
    }

    /// The name Entra shows in messages.
    public var displayName: String { name ?? clientID }
    /// The version of access tokens for this app as an API.
    public var effectiveAccessTokenVersion: Int { accessTokenVersion ?? 1 }
    /// Whether the client can keep a credential (a secret, a certificate or a federated credential).
    public var isConfidential: Bool { type == .confidential }
}

/// The kind of client an app registration is.
public enum ClientType: String, Sendable, CaseIterable {
    /// Mobile and desktop apps: no credential.
    case `public`
    /// Single-page apps: no credential, PKCE required, cross-origin redemption.
    case spa
    /// Web apps and daemons that hold a secret or a certificate.
    case confidential
}

/// A public certificate an app may sign client assertions with.
public struct ClientCertificate: Sendable, Equatable {
    /// Where the certificate came from (a configuration path), for messages.
    public var source: String
    /// The certificate, PEM.
    public var pem: String

    /// A certificate read from `source` (a path, for messages) with its PEM text.
    public init(source: String, pem: String) {
        self.source = source
        self.pem = pem
    }
}

/// Permissions an app holds on one API.
public struct APIPermission: Sendable, Equatable {
    /// The API: a client ID, an identifier URI, or `https://graph.microsoft.com`.
    public var resource: String
    /// Delegated scopes or app roles on that API.
    public var values: [String]

    /// Permissions on `resource`: delegated scopes or app roles.
    public init(resource: String, values: [String]) {
        self.resource = resource
        self.values = values
    }
}

extension ClientCertificate {
    /// Why `pem` cannot serve as a client certificate, or nil when it can: it must hold an X.509 certificate
    /// with an RSA key (Entra verifies client assertions with RS256 or PS256).
    public static func validationProblem(pem: String) -> String? {
        guard pem.contains("-----BEGIN CERTIFICATE-----") else { return "is not a PEM certificate" }
        let certificate: Certificate
        do {
            certificate = try Certificate(pem: pem)
        } catch {
            return "is not a readable X.509 certificate (\(error))"
        }
        guard certificate.publicKey.rsaComponents != nil else {
            return "does not hold an RSA key (client assertions are signed with RS256 or PS256)"
        }
        return nil
    }

    /// The certificate, parsed (nil when the PEM does not hold one; the configuration refuses such files).
    var certificate: Certificate? { try? Certificate(pem: pem) }
}
