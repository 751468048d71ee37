import ArgumentParser
import MockIDP
import MockIDPCore

/// `mockidp token`: mints an ID or access token offline, with the state directory's signing key (the one `serve`
/// publishes from the same directory) and the server's claims rules, and prints it to standard output.
struct TokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Mint a signed ID or access token offline, as the server would issue it, and print it.",
        discussion: """
            The token is signed with the signing key in --state-dir (created when missing, so a later `serve` on the \
            same directory publishes it). Without --user an access token is app-only (as client credentials gives; \
            --scope must then be one '<resource>/.default'). Example: mockidp token --client <client-id> --user \
            alice@contoso.onmicrosoft.com --scope api://contoso-api/access_as_user --claim department=Research
            """
    )

    @OptionGroup var mint: MintOptions

    @Option(name: .long, help: ArgumentHelp("Issue the token with this one defect, for testing that a relying party refuses it: \(TokenDefect.names(for: nil).joined(separator: ", ")).", valueName: "defect"))
    var defect: TokenDefect?

    func run() throws {
        do {
            print(try mint.mint(defect: defect))
        } catch {
            if let line = error.line("token") { printError(line) }
            throw error.status
        }
    }
}

/// The options that say which token to mint, shared by `mockidp token` and `mockidp probe`.
struct MintOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("A configuration file (YAML or JSON); repeat to merge several. Env: MOCKIDP_CONFIG (':'-separated).", valueName: "file"))
    var config: [String] = []

    @Option(name: .long, help: ArgumentHelp("Where the signing key is kept (the same as serve's). Env: MOCKIDP_STATE_DIR.", valueName: "dir"))
    var stateDir: String?

    @Option(name: .long, help: ArgumentHelp("The tenant GUID or domain (default: the configuration's first tenant).", valueName: "tenant"))
    var tenant: String?

    @Option(name: .long, help: ArgumentHelp("The client (application) ID the token is issued to.", valueName: "client-id"))
    var client: String

    @Option(name: .long, help: ArgumentHelp("The user's username (UPN); without it, an app-only access token.", valueName: "username"))
    var user: String?

    @Option(name: .long, help: ArgumentHelp("A scope as a client would ask for it; repeat for several.", valueName: "scope"))
    var scope: [String] = []

    @Option(name: .long, help: ArgumentHelp("An extra claim; the value is JSON when it parses, else a string. Repeatable.", valueName: "name=value"))
    var claim: [String] = []

    @Option(name: .long, help: ArgumentHelp("Seconds until the token expires (default: the configuration's tokens.lifetime).", valueName: "seconds"))
    var lifetime: Int?

    @Option(name: .long, help: "access or id.")
    var kind: MintRequest.Kind = .access

    @Option(name: [.customLong("public-url"), .customLong("issuer-url")],
            help: ArgumentHelp("The server's scheme://host[:port], as in the v2 issuer (default https://127.0.0.1:8443). Env: MOCKIDP_PUBLIC_URL.", valueName: "url"))
    var publicUrl: String?

    @Option(name: [.customLong("token-version"), .customLong("version")], help: ArgumentHelp("ID token version, 1 or 2 (access tokens take their API's version).", valueName: "1|2"))
    var tokenVersion: Int?

    func validate() throws {
        if let lifetime, lifetime <= 0 { throw ValidationError("--lifetime must be a positive number of seconds, got \(lifetime)") }
        if let tokenVersion, ![1, 2].contains(tokenVersion) { throw ValidationError("--token-version must be 1 or 2, got \(tokenVersion)") }
        if tokenVersion != nil, kind == .access {
            throw ValidationError("--token-version applies to ID tokens; an access token takes its API's accessTokenVersion")
        }
        if kind == .id, user == nil { throw ValidationError("an ID token needs --user") }
        for item in claim where !item.contains("=") || item.hasPrefix("=") {
            throw ValidationError("--claim must be name=value, got '\(item)'")
        }
        if let url = publicUrl ?? environment("MOCKIDP_PUBLIC_URL") { try ListenerOptions.checkPublicURL(url) }
    }

    /// Why minting failed, and the exit status it gives.
    struct Failure: Error {
        /// What to print (nil when it was printed already: configuration problems).
        var message: String?
        var status: ExitCode
        /// Printed after `mockidp:` rather than after the command's name (the state directory's errors).
        var general = false

        /// The line to print for `command`, if any.
        func line(_ command: String) -> String? { message.map { general ? "mockidp: \($0)" : "mockidp \(command): \($0)" } }
    }

    /// The provider of the configuration and state directory named, with the signing key `serve` publishes.
    func provider() throws(Failure) -> (IdentityProvider, MintRequest) {
        let paths = config.isEmpty ? (environment("MOCKIDP_CONFIG")?.split(separator: ":").map(String.init) ?? []) : config
        let configuration: IdentityProviderConfiguration
        do { configuration = try loadConfiguration(paths) } catch {
            throw Failure(message: nil, status: (error as? ExitCode) ?? ExitStatus.configuration)
        }
        let directory = StateDirectory(path: stateDir ?? environment("MOCKIDP_STATE_DIR") ?? ".mockidp")
        let key: SigningKey
        do {
            key = try directory.signingKey()
        } catch {
            throw Failure(message: error.description, status: ExitStatus.failure, general: true)
        }
        guard let tenantID = tenant ?? configuration.tenants.first?.id else {
            throw Failure(message: "the configuration has no tenant; name one with --tenant", status: ExitStatus.usage)
        }
        var baseURL = publicUrl ?? environment("MOCKIDP_PUBLIC_URL") ?? "https://127.0.0.1:8443"
        if baseURL.hasSuffix("/") { baseURL.removeLast() }
        let claims = claim.map { item -> (name: String, value: String) in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
        let request = MintRequest(kind: kind, tenant: tenantID, clientID: client, username: user, scopes: scope,
                                  claims: claims, lifetime: lifetime, idTokenVersion: tokenVersion ?? 2, baseURL: baseURL)
        return (IdentityProvider(configuration: configuration, signingKeys: [key]), request)
    }

    /// The token these options describe, with `defect` when given.
    func mint(defect: TokenDefect?) throws(Failure) -> String {
        let (provider, request) = try provider()
        return try Self.mint(request, defect: defect, with: provider)
    }

    /// `request` minted by `provider`, with `defect` when given.
    static func mint(_ request: MintRequest, defect: TokenDefect?, with provider: IdentityProvider) throws(Failure) -> String {
        var request = request
        request.defect = defect
        switch provider.minting.mint(request) {
        case .success(let token): return token
        case .failure(let error): throw Failure(message: "\(error.reason) (\(error.codeAndMessage))", status: ExitStatus.usage)
        }
    }
}

extension MintRequest.Kind: ExpressibleByArgument {}
extension TokenDefect: ExpressibleByArgument {}
