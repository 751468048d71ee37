import MockIDPJOSE
import Synchronization

/// The identity provider: answers discovery, key, token, user-realm and userinfo requests for the configured
/// tenants as Entra ID would. Pure and synchronous: the clock and randomness are passed in, and nothing here
/// knows HTTP; `MockIDP` maps requests and results to the wire.
public final class IdentityProvider: Sendable {
    struct State: Sendable {
        var directory: Directory
        /// The configuration as loaded: what `restoreLoadedConfiguration` goes back to.
        var loadedConfiguration: IdentityProviderConfiguration
        var keys: [SigningKey]
        var refreshTokens: RefreshTokenStore
        var authorizationCodes = AuthorizationCodeStore(capacity: 100_000)
        var sessions = BrowserSessionStore(capacity: 50_000)
        var deviceCodes = DeviceCodeStore()
        /// Faults and extra claims registered through the control API, oldest first.
        var faults: [Fault] = []
        var extraClaims: [ExtraClaims] = []
        var nextControlID = 0
        /// Bumped whenever what discovery and key sets say can change (configuration, keys).
        var generation: Int = 0
    }

    let state: Mutex<State>
    /// The provider's clock (tests move it forward).
    public let clock: ProviderClock
    let random: RandomSource

    /// A provider serving `configuration`, signing with the first of `signingKeys` and publishing all of them.
    public init(configuration: IdentityProviderConfiguration, signingKeys: [SigningKey], clock: ProviderClock = .system(),
                random: RandomSource = SystemRandom()) {
        precondition(!signingKeys.isEmpty, "a provider needs at least one signing key")
        state = Mutex(State(directory: Directory(configuration), loadedConfiguration: configuration, keys: signingKeys, refreshTokens: RefreshTokenStore(capacity: 200_000)))
        self.clock = clock
        self.random = random
    }

    /// The configuration being served.
    public var configuration: IdentityProviderConfiguration { state.withLock { $0.directory.configuration } }

    /// Serves `configuration` from now on; refresh tokens of users and apps that no longer exist stop working.
    public func replaceConfiguration(_ configuration: IdentityProviderConfiguration) {
        state.withLock {
            $0.directory = Directory(configuration)
            $0.loadedConfiguration = configuration
            $0.generation += 1
        }
    }

    /// Changes whenever documents built from the configuration or keys may change, so callers can cache them.
    public var generation: Int { state.withLock { $0.generation } }

    var directory: Directory { state.withLock { $0.directory } }
    var activeKey: SigningKey {
        state.withLock { s in
            guard let first = s.keys.first else { preconditionFailure("the key ring is never empty") }
            return first
        }
    }
    /// Every published signing key, the active one first.
    public var signingKeys: [SigningKey] { state.withLock { $0.keys } }

    /// The cloud a request speaks as: the one whose login (or B2C) host it came to, else the tenant's own.
    func cloud(for context: RequestContext, tenant: Tenant?) -> Cloud {
        switch context.hostScope {
        case .login(let cloud), .b2c(let cloud): cloud
        case .neutral: tenant.map { Cloud.named($0.cloud) } ?? .publicCloud
        }
    }

    /// Entra's AADSTS90002 when the tenant segment of a request names a configured tenant that the request's host
    /// does not serve (a tenant of another cloud, or a non-B2C tenant on a `*.b2clogin.*` host); nil otherwise.
    /// Unknown names are left to the endpoint, which reports them in its own way.
    public func hostRefusal(tenantSegment: String, context: RequestContext, forDiscovery: Bool) -> OAuthError? {
        guard context.hostScope != .neutral, let tenant = directory.tenant(tenantSegment) else { return nil }
        return checkHost(serves: tenant, context: context, named: tenantSegment, forDiscovery: forDiscovery)
    }

    /// AADSTS90002 when `tenant` is not served on the request's host.
    func checkHost(serves tenant: Tenant, context: RequestContext, named: String? = nil, forDiscovery: Bool = false) -> OAuthError? {
        guard !context.hostScope.serves(tenant) else { return nil }
        var error = OAuthError.tenantNotFound(named ?? tenant.id, forDiscovery: forDiscovery)
        error.reason = context.hostScope.refusal(of: tenant, host: context.host)
        return error
    }

    func tokenFactory(_ context: RequestContext, tenant: Tenant?, lifetime: Int? = nil) -> TokenFactory {
        TokenFactory(key: activeKey, cloud: cloud(for: context, tenant: tenant), baseURL: context.baseURL,
                     issuerBaseURL: context.issuerBaseURL,
                     lifetime: lifetime ?? configuration.tokens.lifetime, random: random, directory: directory,
                     claimsRequest: context.claims)
    }

    /// A factory for one token response of `clientID` (and `username`), carrying the control API's extra claims
    /// registered for them (which this counts as used).
    func tokenFactory(_ context: RequestContext, tenant: Tenant?, clientID: String, username: String?) -> TokenFactory {
        var factory = tokenFactory(context, tenant: tenant)
        factory.extraClaims = takeExtraClaims(clientID: clientID, username: username)
        return factory
    }

    /// A new random GUID (trace and correlation IDs).
    public func newGUID() -> String { GUID.random(random) }
}
