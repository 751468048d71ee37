import Foundation
import MockIDP
import MockIDPCore

/// A running mock identity provider, as a test sees it: where it listens, how to name its authorities and
/// endpoints, the CA to trust, its HTTP client (`client`, `+Requests`), token helpers (`+Tokens`) and the control
/// API (`+Control`).
public struct MockIdentityProvider: Sendable {
    /// The server (its provider, options and state directory).
    public let server: MockIdentityProviderServer
    /// `scheme://127.0.0.1:port` of the listener (`http(s)://localhost` in-process), without a trailing slash.
    public let baseURL: String
    /// How the test reaches the server: its routes in-process, or a real HTTP client over its listener.
    public let mode: MockIdentityProviderMode
    /// The HTTP client every request of this value goes through (the helpers' too), in `mode`: send any request
    /// with it (`execute`, `get`, `postForm`, `postJSON`, also offered on this value itself).
    public let client: MockIDPClient

    init(server: MockIdentityProviderServer, baseURL: String, mode: MockIdentityProviderMode, transport: HTTPTransport) {
        self.server = server
        self.baseURL = baseURL
        self.mode = mode
        client = MockIDPClient(baseURL: baseURL, transport: transport)
    }

    /// Whether the server speaks HTTPS (with the CA of `caCertificatePath`).
    public var usesTLS: Bool { server.options.tls }

    /// The port the server listens on.
    public var port: Int { Int(baseURL.split(separator: ":").last ?? "") ?? 0 }

    /// The authority URL of a tenant (GUID, domain, `common`, `organizations`, `consumers`), as MSAL and
    /// azure-identity take it: `baseURL/tenant`.
    public func authority(tenant: String) -> String { "\(baseURL)/\(tenant)" }

    /// The B2C authority of a user flow in MSAL's `tfp` form: `baseURL/tfp/{tenant}/{policy}`.
    public func b2cAuthority(tenant: String, policy: String) -> String {
        B2CEndpointTable.tfpAuthority(baseURL: baseURL, tenant: tenant, policy: policy)
    }

    /// The authority on the production login host of `cloud` (`https://login.microsoftonline.us/{tenant}` for
    /// `.usgov`), for a client that runs with real host names: it must resolve that host to this server (an
    /// `/etc/hosts` line or a resolver override), trust `caCertificatePath`, and reach it on port 443, so start
    /// the provider with `port: 443` and `tls: true`. The server answers for the cloud's hosts when the
    /// configuration has a tenant in that cloud (or names the host in `hosts`).
    public func authority(tenant: String, cloud: CloudName) -> String {
        "https://\(Cloud.named(cloud).preferredNetworkHost)/\(tenant)"
    }

    /// The v2 token endpoint of a tenant.
    public func tokenEndpoint(tenant: String) -> String { EndpointTable.url(.v2Token, baseURL: baseURL, tenant: tenant) }

    /// The v1 token endpoint of a tenant (ADAL's `resource=` requests).
    public func v1TokenEndpoint(tenant: String) -> String { EndpointTable.url(.v1Token, baseURL: baseURL, tenant: tenant) }

    /// The v2 authorize endpoint of a tenant.
    public func authorizeEndpoint(tenant: String) -> String { EndpointTable.url(.v2Authorize, baseURL: baseURL, tenant: tenant) }

    /// The v2 OpenID Connect discovery document of a tenant.
    public func discoveryURL(tenant: String) -> String { EndpointTable.url(.v2Discovery, baseURL: baseURL, tenant: tenant) }

    /// The v2 key set of a tenant (the `jwks_uri` of its discovery document).
    public func keySetURL(tenant: String) -> String { EndpointTable.url(.v2Keys, baseURL: baseURL, tenant: tenant) }

    /// The URL of a managed-identity endpoint on this server (`…/metadata/identity/oauth2/token` for IMDS,
    /// `…/msi/token` for App Service and Cloud Shell): what `IDENTITY_ENDPOINT` or `MSI_ENDPOINT` hold, or, without
    /// the path, `AZURE_POD_IDENTITY_AUTHORITY_HOST`.
    public func managedIdentityEndpoint(_ host: ManagedIdentityHost) -> String {
        ManagedIdentityEndpointTable.url(host, baseURL: baseURL)
    }

    /// The App Service identity header secret the server expects in `X-IDENTITY-HEADER` (`IDENTITY_HEADER`).
    public var identityHeader: String { server.identityHeader }

    /// The CA certificate file clients must trust (nil without TLS). It lives in a temporary state directory
    /// that is removed when the provider stops, unless a `stateDirectory` was given.
    public var caCertificatePath: String? { server.caCertificatePath }

    /// The CA certificate clients must trust, as PEM text (nil without TLS).
    public var caCertificatePEM: String? {
        guard let path = caCertificatePath else { return nil }
        return try? String(contentsOfFile: path, encoding: .utf8)
    }
}
