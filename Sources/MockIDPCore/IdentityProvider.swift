import MockIDPJOSE
import MockIDPXML

/// The identity provider, as a thin façade: the stores of the directory it serves and of what it issues, the scope of
/// each request, the token factories, and one entry point per feature (token, authorize, device flow, sign-in,
/// discovery, userinfo, Graph, managed identity, …), each feature's logic a value in its folder. Pure and
/// synchronous: the clock and randomness are passed in, and nothing here knows HTTP; `MockIDP` maps requests and
/// results to the wire.
public final class IdentityProvider: Sendable {
    /// The directory being served and the configuration it was loaded from.
    package let served: ServedDirectory

    // What requests issue and redeem: each store is self-locking, and none is held while another is taken.
    let authorizationCodes = AuthorizationCodes(capacity: 100_000)
    package let sessions: Sessions
    let refreshTokens = RefreshTokens()
    let deviceCodes = DeviceCodes()
    /// The consents users gave apps (`consentRequired`); never part of the directory snapshot.
    package let consents = Consents(capacity: 100_000)
    /// Faults, extra claims and tamper faults registered through the control API.
    package let controls = Controls()
    /// The one-time passcodes External ID would have mailed.
    package let outbox = Outbox()
    /// The codes External ID's sign-in pages wait for.
    let emailVerifications = EmailVerifications()
    /// The native authentication API's flows, by continuation token.
    let nativeAuthFlows: NativeAuthFlows

    /// The provider's clock (tests move it forward).
    package let clock: ProviderClock
    package let random: RandomSource
    /// Apps' service principal IDs, derived once each.
    let servicePrincipals = ServicePrincipalIDs()
    /// The key sets trusted issuers publish at a URL (`jwksUri`), fetched by the server.
    let remoteKeySets: any RemoteKeySetSource
    /// SAML apps' signing certificates, kept in the server's state directory.
    package let samlCertificates: SAMLCertificates
    /// SAML sign-ons waiting for their user on the sign-in page.
    let samlSignOns = PendingSAMLSignOns(capacity: 100_000)
    /// The last SAML Response each app was sent, for the inspector.
    package let samlResponses = SAMLResponseLog()

    /// A provider serving `configuration`, signing with the first of `signingKeys` and publishing all of them.
    package init(configuration: IdentityProviderConfiguration, signingKeys: [SigningKey], clock: ProviderClock = .system(),
                random: RandomSource = SystemRandom(), remoteKeySets: any RemoteKeySetSource = NoRemoteKeySets(),
                samlCertificateVault: any SAMLCertificateVault = NoSAMLCertificateVault()) {
        precondition(!signingKeys.isEmpty, "a provider needs at least one signing key")
        served = ServedDirectory(configuration, signingKeys: signingKeys)
        sessions = Sessions(clock: clock, random: random)
        nativeAuthFlows = NativeAuthFlows(random: random)
        self.clock = clock
        self.random = random
        self.remoteKeySets = remoteKeySets
        samlCertificates = SAMLCertificates(vault: samlCertificateVault)
    }

    /// The directory as it is now: the configuration, its indexes and the signing keys, one consistent value.
    /// Takes the lock once; call it once per request and pass the value on.
    package func snapshot() -> Directory { served.snapshot() }

    /// The scope of a request that came to `host`: the directory as it is now (the one snapshot a request takes),
    /// in Entra's v2 dialect until the edge resolves the route's.
    package func scope(_ host: RequestHost, correlationID: String? = nil, clientAddress: String? = nil) -> RequestScope {
        var scope = RequestScope(host, directory: served.snapshot(), correlationID: correlationID)
        scope.clientAddress = clientAddress
        return scope
    }

    func tokenFactory(_ directory: Directory, _ context: RequestScope, tenant: Tenant?, lifetime: Int? = nil) -> TokenFactory {
        TokenFactory(key: directory.activeKey, cloud: context.cloud(for: tenant), baseURL: context.baseURL,
                     issuerBaseURL: context.issuerBaseURL(for: tenant),
                     lifetime: lifetime ?? directory.configuration.tokens.lifetime, random: random, directory: directory,
                     servicePrincipals: servicePrincipals, claimsRequest: context.claims, clientAddress: context.clientAddress)
    }

    /// A factory for one token response of `clientID` (and `username`), carrying the control API's extra claims
    /// registered for them (which this counts as used), and its tamper faults when any wait.
    func tokenFactory(_ directory: Directory, _ context: RequestScope, tenant: Tenant?, clientID: String, username: String?) -> TokenFactory {
        var factory = tokenFactory(directory, context, tenant: tenant)
        let (claims, tamperFaultsWait) = controls.takeExtraClaims(clientID: clientID, username: username)
        factory.extraClaims = claims
        if tamperFaultsWait { factory.tamper = tamper(clientID: clientID) }
        return factory
    }

    /// A factory for the tokens of an authorize response (implicit, hybrid), with the tamper faults for `clientID`
    /// when any wait: those responses carry the `nonce`, `c_hash` and `at_hash` a web app must check.
    func frontChannelTokenFactory(_ directory: Directory, _ context: RequestScope, tenant: Tenant, clientID: String) -> TokenFactory {
        var factory = tokenFactory(directory, context, tenant: tenant)
        factory.groupLimit = 6
        if controls.tamperFaultsWait { factory.tamper = tamper(clientID: clientID) }
        return factory
    }

    private func tamper(clientID: String) -> @Sendable (TokenKind, (String) -> Bool) -> TokenDefect? {
        { [controls] kind, has in controls.takeDefect(kind: kind, clientID: clientID, has: has) }
    }

    /// Back to the start: the loaded configuration's users and apps, no sessions, codes, device codes, refresh
    /// tokens, consents or native-auth flows, no faults, extra claims, outbox messages or SAML Responses kept for the inspector, and the real time. Signing keys stay as they are.
    package func reset() {
        served.restoreLoadedConfiguration()
        refreshTokens.removeAll()
        authorizationCodes.removeAll()
        sessions.removeAll()
        deviceCodes.removeAll()
        consents.removeAll()
        samlSignOns.removeAll()
        samlResponses.removeAll()
        controls.removeAll()
        outbox.removeAll()
        emailVerifications.removeAll()
        nativeAuthFlows.removeAll()
        clock.reset()
    }

    /// A new random GUID (trace and correlation IDs).
    package func newGUID() -> String { GUID.random(random) }

    /// A new, unguessable value (session IDs, form tokens, nonces).
    package func newSessionID() -> String { Base64URL.encode(random.bytes(32)) }

    // The endpoints: each feature's logic is a value in its folder, over the stores above.

    /// The token endpoint: checks the request in Entra's order and returns tokens or Entra's error.
    package func token(_ request: TokenRequest, context: RequestScope) -> Result<TokenResponse, OAuthError> {
        TokenEndpoint(provider: self).answer(request, scope: context)
    }
    /// Authorize requests: their checks, and the response once a user signed in.
    package var authorizeEndpoint: AuthorizeEndpoint { AuthorizeEndpoint(provider: self) }
    /// The device code flow: the device authorization endpoint and the `/devicelogin` page's decisions.
    package var deviceFlow: DeviceFlow { DeviceFlow(provider: self) }
    /// The sign-in page's and the browser session's decisions.
    package var signIn: SignIn { SignIn(provider: self) }
    /// Users made on the fly (`signIn: {anyUser: true}`).
    package var usersOnTheFly: UsersOnTheFly { UsersOnTheFly(served: served) }
    /// What consent asks for, and the control API's consents.
    package var consentPolicy: ConsentPolicy { ConsentPolicy(consents: consents) }
    /// Discovery documents, key sets, instance discovery and user realm, Entra's and B2C's.
    package var discovery: DiscoveryDocuments { DiscoveryDocuments() }
    /// `/oidc/userinfo`.
    package var userInfo: UserInfoEndpoint { UserInfoEndpoint(clock: clock) }
    /// Microsoft Graph's directory slice.
    package var graph: GraphEndpoint { GraphEndpoint(clock: clock) }
    /// Managed identity token endpoints (IMDS, App Service, Cloud Shell).
    package var managedIdentity: ManagedIdentityEndpoint { ManagedIdentityEndpoint(provider: self) }
    /// External ID's sign-up, e-mail codes and password reset.
    package var externalIDUserFlows: ExternalIDUserFlows { ExternalIDUserFlows(provider: self) }
    /// External ID's native authentication API (sign-in, sign-up, password reset, MFA).
    package var nativeAuth: NativeAuthEndpoint { NativeAuthEndpoint(provider: self) }
    /// B2C's sign-up, password reset and profile edit.
    package var b2cUserFlows: B2CUserFlows { B2CUserFlows(served: served) }
    /// Tokens minted offline (`mockidp token`, `mockidp probe`).
    package var minting: TokenMinting { TokenMinting(provider: self) }
    /// SAML 2.0 and WS-Federation enterprise apps: metadata, certificates, sign-on.
    package var saml: SAMLEndpoint { SAMLEndpoint(provider: self) }
    /// Tokens taken apart for the inspector page.
    package var inspector: TokenInspector { TokenInspector(provider: self) }
}
