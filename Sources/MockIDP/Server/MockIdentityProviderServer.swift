import Logging
import MockIDPCore
import MockIDPHTTP
import MockIDPJOSE

/// The embeddable server: an `IdentityProvider` behind libmicrohttpd listeners, with the state directory's keys
/// and certificate. `mockidp serve` and `MockIDPTesting` both run this.
public final class MockIdentityProviderServer: Sendable {
    /// The provider answering requests.
    public let provider: IdentityProvider
    /// How it was told to run (listeners, TLS, state directory, control API); `identityHeader` is the one in use.
    public let options: ServerOptions
    /// The state directory in use.
    public let stateDirectory: StateDirectory
    private let http: HTTPServer
    private let routes: Routes
    private let logger: Logger
    /// Trusted issuers' key sets fetched from their `jwksUri`.
    private let remoteKeySets: RemoteKeySetCache

    /// Loads or creates keys and certificates, and prepares (does not start) the listeners.
    ///
    /// `saved` is what `loadSavedState(options:)` read for the same options, when the caller read it ahead (`serve`
    /// reads it while it loads the configuration); nil reads it here.
    public init(configuration: IdentityProviderConfiguration, options: ServerOptions, logger: Logger,
                clock: ProviderClock = .system(), saved: SavedState? = nil) throws(MockIDPError) {
        if let token = options.adminToken, let problem = Self.adminTokenProblem(token) { throw MockIDPError(problem) }
        if let secret = options.identityHeader, let problem = Self.identityHeaderProblem(secret) { throw MockIDPError(problem) }
        let state = StateDirectory(path: options.stateDirectory)
        let saved = if let saved { saved } else { try Self.loadSavedState(options: options) }
        self.logger = logger
        stateDirectory = state
        let signingKey = saved.signingKey
        var options = options
        options.identityHeader = saved.identityHeader
        self.options = options
        let remoteKeySets = RemoteKeySetCache(logger: logger)
        self.remoteKeySets = remoteKeySets
        provider = IdentityProvider(configuration: configuration, signingKeys: [signingKey], clock: clock, remoteKeySets: remoteKeySets,
                                    samlCertificateVault: SAMLCertificateFiles(state: state))

        var tls: HTTPServer.TLSIdentity?
        if options.tls {
            let names = Self.certificateNames(configuration: configuration, options: options)
            do {
                let identity = try state.tlsIdentity(dnsNames: names.dns, ipAddresses: names.ip, now: clock.now())
                tls = HTTPServer.TLSIdentity(certificateChainPEM: identity.chainPEM, privateKeyPEM: identity.keyPEM)
            } catch { throw MockIDPError(error.description) }
        }
        let listeners = options.ports.map { HTTPServer.Listener(host: options.host, port: $0) }
            + options.httpPorts.map { HTTPServer.Listener(host: options.host, port: $0, plainHTTP: true) }
        var httpConfiguration = HTTPServer.Configuration(listeners: listeners, tls: tls)
        if let threads = options.threadsPerListener { httpConfiguration.threadsPerListener = threads }
        if let problem = options.limits.problem { throw MockIDPError(problem) }
        httpConfiguration.limit(by: options.limits)
        let routes = Routes(provider: provider, options: options, logger: logger)
        self.routes = routes
        let log = routes.handlers.requestLog
        http = HTTPServer(configuration: httpConfiguration, logger: logger, rejections: { rejection in
            log.record(RequestLog.Entry(method: rejection.method, path: rejection.path, status: rejection.status, reason: rejection.reason))
        }) { request in routes.respond(to: request) }
    }

    /// What a server reads from its state directory whatever its configuration: the token-signing key and the
    /// App Service identity header. Each is created and saved when missing.
    public struct SavedState: Sendable {
        let signingKey: SigningKey
        let identityHeader: String
    }

    /// Reads (or creates) the state `options` name; needs no configuration, so it can run beside its loading.
    /// The identity header is `options.identityHeader` when given.
    public static func loadSavedState(options: ServerOptions) throws(MockIDPError) -> SavedState {
        let state = StateDirectory(path: options.stateDirectory)
        do {
            let signingKey = try state.signingKey()
            let identityHeader: String
            if let given = options.identityHeader { identityHeader = given } else { identityHeader = try state.identityHeader() }
            return SavedState(signingKey: signingKey, identityHeader: identityHeader)
        } catch { throw MockIDPError(error.description) }
    }

    /// Answers `request` as a listener would, in-process: no socket, the same routes, middleware and request log.
    /// `MockIDPTesting`'s in-process mode, and tests that need no network, call this.
    package func respond(to request: HTTPRequest) -> HTTPResponse { routes.respond(to: request) }

    /// Binds every listener; throws one clear sentence when a port cannot be used.
    public func start() throws(MockIDPError) {
        do { try http.start() } catch { throw MockIDPError(error.description) }
        remoteKeySets.prefetch(provider.snapshot().configuration.trustedIssuers.compactMap { issuer in
            if case .uri(let url) = issuer.keys { return url }
            return nil
        })
    }

    /// The base URL of each listener, in the order of the ports asked for (`--port`, then `--http-port`).
    public var baseURLs: [String] { http.boundListeners.map(\.baseURL) }

    /// Stops accepting, lets requests in flight finish (up to `gracePeriod`), then closes.
    public func stop(gracePeriod: Duration = .seconds(5)) { http.stop(gracePeriod: gracePeriod) }

    /// The local CA clients must trust, as PEM (nil with `--no-tls`).
    public var caCertificatePath: String? { options.tls ? stateDirectory.caCertificatePath : nil }

    /// Why `token` cannot be the control API's admin token, or nil when it can. An empty (or blank) token would let
    /// every caller in with an empty `Authorization: Bearer`, or lock everyone out; either way it is a mistake.
    public static func adminTokenProblem(_ token: String) -> String? {
        guard token.allSatisfy(\.isWhitespace) else { return nil }
        return "--admin-token must not be empty: give the token callers send as Authorization: Bearer TOKEN, or leave the flag out"
    }

    /// The App Service identity header secret clients send as `X-IDENTITY-HEADER` (`IDENTITY_HEADER`).
    public var identityHeader: String { options.identityHeader ?? "" }

    /// Why `secret` cannot be the identity header, or nil when it can: an empty one would be a secret every caller
    /// knows (App Service's header guards against server-side request forgery).
    public static func identityHeaderProblem(_ secret: String) -> String? {
        guard secret.allSatisfy(\.isWhitespace) else { return nil }
        return "--identity-header must not be empty: give the secret clients send as X-IDENTITY-HEADER, or leave the flag out for a generated one"
    }

    /// The names the TLS certificate must carry: loopback, the listen address, the `--public-url` host and every
    /// host the configuration serves (`IdentityProviderConfiguration.servedHostNames`).
    static func certificateNames(configuration: IdentityProviderConfiguration, options: ServerOptions) -> (dns: [String], ip: [String]) {
        var dns = ["localhost"]
        var ip = ["127.0.0.1", "::1"]
        func add(_ name: String) {
            let n = name.lowercased()
            if n.utf8.contains(UInt8(ascii: ":")) || n.allSatisfy({ $0.isNumber || $0 == "." }) {
                if !ip.contains(n), !n.isEmpty, n != "0.0.0.0", n != "::" { ip.append(n) }
            } else if !dns.contains(n), !n.isEmpty {
                dns.append(n)
            }
        }
        add(options.host)
        // Clients reach a server behind `--public-url` by that name (a compose service, a proxy): TLS must hold for it.
        if let publicURL = options.publicURL { add(HostHeader.hostName(of: publicURL).filter { $0 != "[" && $0 != "]" }) }
        configuration.servedHostNames.forEach(add)
        return (dns, ip)
    }
}

/// The server cannot start or run; one clear sentence.
public struct MockIDPError: Error, Sendable, CustomStringConvertible {
    /// The sentence.
    public var description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}

extension HTTPServer.Configuration {
    /// Takes the server's limit flags.
    mutating func limit(by limits: ServerLimits) {
        connectionLimit = limits.connections
        perAddressConnectionLimit = limits.connectionsPerAddress
        connectionTimeout = limits.connectionTimeout
        maximumBodySize = limits.bodySize
        maximumHeaderSize = limits.headerSize
    }
}
