import ArgumentParser
import Foundation
import MockIDP

/// `mockidp env`: the variables SDKs need to trust and reach a server started with the same options, for
/// `eval "$(mockidp env)"` (or fish, PowerShell, a dotenv file).
struct EnvCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "env",
        abstract: "Print the variables SDKs need to trust and reach the server (eval \"$(mockidp env)\").",
        discussion: """
            Give the options you give `serve` (--host, --port, --public-url, --state-dir, --no-tls, or their MOCKIDP_ \
            variables): AZURE_AUTHORITY_HOST is the base URL that server answers on, and SSL_CERT_FILE, \
            REQUESTS_CA_BUNDLE, NODE_EXTRA_CA_CERTS and CURL_CA_BUNDLE name its CA (<state-dir>/ca.pem, created now \
            as serve creates it when the state directory has none yet).
            """)

    @Option(name: .long, help: ArgumentHelp("sh (also bash, zsh), fish or powershell.", valueName: "shell"))
    var shell: ClientEnvironment.Format?

    @Option(name: .long, help: ArgumentHelp("dotenv: NAME=value lines for an env file instead of shell commands.", valueName: "format"))
    var format: ClientEnvironment.Format?

    /// serve's own options: the first port is the one printed.
    @OptionGroup var listener: ListenerOptions

    @Option(name: .long, help: ArgumentHelp("serve's --http-port: also print the managed-identity variables (App Service's IDENTITY_ENDPOINT and IDENTITY_HEADER) for it.", valueName: "n"))
    var httpPort: Int?

    @Option(name: .long, help: ArgumentHelp("serve's --identity-header, when it was given one.", valueName: "secret"))
    var identityHeader: String?

    func validate() throws {
        if let shell, shell == .dotenv { throw ValidationError("--shell must be sh, fish or powershell; for a dotenv file use --format dotenv") }
        if let format, format != .dotenv { throw ValidationError("--format must be dotenv (for a shell, use --shell \(format.rawValue))") }
        if shell != nil && format != nil { throw ValidationError("give --shell or --format, not both") }
        if let httpPort, !(1...65535).contains(httpPort) {
            throw ValidationError("--http-port must be the port serve's plain-HTTP listener uses (1-65535), got \(httpPort)")
        }
        if let secret = identityHeader, let problem = MockIdentityProviderServer.identityHeaderProblem(secret) { throw ValidationError(problem) }
        if listener.publicURL == nil && listener.ports.first == 0 {
            throw ValidationError("--port 0 picks a free port only when serve starts: name the port serve listens on, or --public-url")
        }
    }

    /// The base URL the server answers on: `--public-url`, else scheme, host and the first port. A wildcard address
    /// is reached at loopback, an IPv6 address in brackets.
    private var baseURL: String {
        if let url = listener.publicURL { return url }
        return "\(listener.noTls ? "http" : "https")://\(listenerAddress):\(listener.ports.first ?? 8443)"
    }

    /// The address clients reach serve's listeners at: a wildcard address at loopback, an IPv6 address in brackets.
    private var listenerAddress: String {
        var address = listener.address
        if address == "0.0.0.0" { address = "127.0.0.1" }
        if address == "::" { address = "::1" }
        if address.contains(":") && !address.hasPrefix("[") { address = "[\(address)]" }
        return address
    }

    func run() throws {
        let directory = StateDirectory(path: listener.stateDirectory)
        let caPath: String
        do {
            caPath = URL(fileURLWithPath: try directory.certificateAuthorityPath()).standardizedFileURL.path
        } catch {
            printError("mockidp: \(error.description)")
            throw ExitStatus.failure
        }
        var variables = ClientEnvironment(caPath: caPath, authorityHost: baseURL)
        if let httpPort {
            // App Service's pair, which azure-identity (and every Azure SDK) tries before the instance metadata
            // service: the same secret serve keeps in the state directory (or was given).
            var secret = identityHeader ?? ""
            if identityHeader == nil {
                do { secret = try directory.identityHeader() } catch {
                    printError("mockidp: \(error.description)")
                    throw ExitStatus.failure
                }
            }
            variables = variables.adding("IDENTITY_ENDPOINT", "http://\(listenerAddress):\(httpPort)/msi/token")
                .adding("IDENTITY_HEADER", secret)
        }
        do {
            print(try variables.rendered(as: format ?? shell ?? .sh), terminator: "")
        } catch {
            printError("mockidp: \(error.description)")
            throw ExitStatus.failure
        }
    }
}

extension ClientEnvironment.Format: ExpressibleByArgument {}
