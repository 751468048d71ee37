import ArgumentParser
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Logging
import MockIDP
import MockIDPConfiguration
import MockIDPCore
import MockIDPJOSE
import ServiceLifecycle

/// `serve`'s one-time set-up, started early on a thread of its own: the configuration's field tables and libcrypto's
/// providers and random generator. Only warming: what it does not finish is done on first use. A POSIX thread, not
/// Foundation's `Thread`, whose start runs NSThread's name and dictionary code (five 64 KB windows of Foundation's
/// pages, which scripts/link-order cannot move, at start-up).
private enum Warmup {
    static func start() {
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        _ = pthread_create(&thread, &attributes, { _ in
            ConfigurationLoader.prepare()
            LibCryptoPreparation.run()
            return nil
        }, nil)
    }
}

/// The process's entry point: runs the command on the cooperative pool while the main thread waits.
///
/// An `async` `main` would give its main thread to `dispatch_main`, which leaves through `pthread_exit`: that loads
/// libgcc_s and unwinds the main thread's stack through the unwind tables before the first task may run (pages of
/// the binary touched on the path to the first answer).
@main
enum Main {
    static func main() {
        // `serve` answers its first request sooner when one-time set-up (the configuration's field tables,
        // libcrypto's providers and random generator) runs on the other core while the arguments are parsed.
        if CommandLine.arguments.dropFirst().first == "serve" {
            Warmup.start()
        }
        let finished = DispatchSemaphore(value: 0)
        Task.detached(priority: .high) {
            if let serve = Serve.parsedAlone(CommandLine.arguments) {
                do { try await serve.run() } catch { MockIDPCommand.exit(withError: error) }
            } else {
                await MockIDPCommand.main()
            }
            finished.signal()
        }
        finished.wait()
    }
}

/// `mockidp`: a local mock of Microsoft Entra ID for integration tests.
struct MockIDPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mockidp",
        abstract: "A local mock identity provider that behaves like Microsoft Entra ID.",
        version: MockIDPVersion.current,
        subcommands: [Serve.self, Config.self, EnvCommand.self, TokenCommand.self, ProbeCommand.self],
        defaultSubcommand: nil
    )
}

/// Exit codes of the interface: 64 bad command line, 78 bad configuration, 1 any other failure.
enum ExitStatus {
    static let usage = ExitCode(64)
    static let configuration = ExitCode(78)
    static let failure = ExitCode(1)
}

/// Prints to standard error in one write.
func printError(_ message: String) { printErrorRaw(message + "\n") }

/// Writes `text` to standard error in one write, as it is (no newline added).
func printErrorRaw(_ text: String) {
    var bytes = Array(text.utf8)
    bytes.withUnsafeMutableBytes { _ = write(2, $0.baseAddress, $0.count) }
}

func environment(_ name: String) -> String? {
    guard let v = getenv(name) else { return nil }
    let s = String(cString: v)
    return s.isEmpty ? nil : s
}

/// Loads configuration files (none: the embedded default), printing every problem and exiting 78 on failure.
func loadConfiguration(_ paths: [String]) throws -> IdentityProviderConfiguration {
    do {
        return try ConfigurationLoader.load(paths: paths)
    } catch {
        for problem in error.problems { printError(problem.description) }
        throw ExitStatus.configuration
    }
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Serve the configured tenants (the embedded default when no --config is given).")

    @Option(name: .long, help: ArgumentHelp("A configuration file (YAML or JSON); repeat to merge several. Env: MOCKIDP_CONFIG (':'-separated).", valueName: "file"))
    var config: [String] = []

    @OptionGroup var listener: ListenerOptions

    @Option(name: .long, help: ArgumentHelp("Also listen with plain HTTP on this port (0: any free port), as IMDS does; repeat for several.", valueName: "n"))
    var httpPort: [Int] = []

    @Option(name: .long, help: ArgumentHelp("Write the first base URL to this file when ready.", valueName: "file"))
    var readyFile: String?

    @Option(name: .long, help: "trace, debug, info, warning or error.")
    var logLevel: Logger.Level = .info

    @Option(name: .long, help: ArgumentHelp("Require 'Authorization: Bearer TOKEN' on the control API.", valueName: "token"))
    var adminToken: String?

    @Flag(name: .long, help: "Turn the control API off.")
    var noAdmin = false

    @Option(name: .long, help: ArgumentHelp("The App Service identity header secret (X-IDENTITY-HEADER); default: generated, kept in the state directory.", valueName: "secret"))
    var identityHeader: String?

    @OptionGroup(title: "Limits") var limitOptions: LimitOptions

    func validate() throws {
        for p in httpPort where !(0...65535).contains(p) { throw ValidationError("--http-port must be between 0 and 65535, got \(p)") }
        if let secret = identityHeader, let problem = MockIdentityProviderServer.identityHeaderProblem(secret) { throw ValidationError(problem) }
        if let token = adminToken, let problem = MockIdentityProviderServer.adminTokenProblem(token) { throw ValidationError(problem) }
    }

    /// `mockidp serve …`'s options parsed by `Serve` alone, skipping the root command and its subcommand lookup; nil
    /// for anything else and whenever that parse throws (help, `--version`, completion scripts, any mistake), in
    /// which case `MockIDPCommand.main()` parses the arguments from the start and answers exactly as always.
    static func parsedAlone(_ arguments: [String]) -> Serve? {
        guard arguments.dropFirst().first == "serve" else { return nil }
        return (try? parseAsRoot(Array(arguments.dropFirst(2)))) as? Serve
    }

    func run() async throws {
        let level = logLevel
        LoggingSystem.bootstrap { label in StandardErrorLogHandler(label: label, level: level) }
        let logger = Logger(label: "mockidp")

        let paths = config.isEmpty ? (environment("MOCKIDP_CONFIG")?.split(separator: ":").map(String.init) ?? []) : config
        var options = ServerOptions(host: listener.address, ports: listener.ports, tls: !listener.noTls,
                                    stateDirectory: listener.stateDirectory,
                                    publicURL: listener.publicURL, adminToken: adminToken, adminEnabled: !noAdmin,
                                    httpPorts: httpPort.map { UInt16($0) }, identityHeader: identityHeader)
        options.limits = limitOptions.limits
        // The state directory's keys need no configuration: read them on the other core while the configuration loads.
        async let saved = Result { [options] () throws(MockIDPError) in try MockIdentityProviderServer.loadSavedState(options: options) }
        let configuration = try loadConfiguration(paths)
        let server: MockIdentityProviderServer
        do {
            server = try MockIdentityProviderServer(configuration: configuration, options: options, logger: logger, saved: await saved.get())
        } catch {
            printError("mockidp: \(error.description)")
            throw ExitStatus.failure
        }
        if identityHeader == nil {
            // App Service clients send it as X-IDENTITY-HEADER, read from IDENTITY_HEADER (docs/azure-sdks.md).
            printError("mockidp: identity header (IDENTITY_HEADER) \(server.identityHeader), kept in \(server.stateDirectory.path)")
        }
        let service = MockIDPService(server: server, readyFile: readyFile, logger: logger)
        let group = ServiceGroup(configuration: .init(services: [service], gracefulShutdownSignals: [.sigterm, .sigint],
                                                      logger: Logger(label: "mockidp.lifecycle", factory: { _ in SwiftLogNoOpLogHandler() })))
        do {
            try await group.run()
        } catch let error as MockIDPError {
            printError("mockidp: \(error.description)")
            throw ExitStatus.failure
        } catch {
            printError("mockidp: \(error)")
            throw ExitStatus.failure
        }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

struct Config: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Check or print configuration files, or print their JSON Schema.",
        subcommands: [Check.self, Print.self, Schema.self]
    )

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "check", abstract: "Validate files; print every problem as FILE:LINE: PATH: reason; exit 0 or 78.")

        @Argument(help: "Configuration files, merged in order.")
        var files: [String]

        func validate() throws {
            guard !files.isEmpty else { throw ValidationError("name at least one configuration file") }
        }

        func run() throws {
            ConfigurationLoader.releaseInBackground(try loadConfiguration(files))
            print("configuration OK: \(files.joined(separator: ", "))")
        }
    }

    struct Print: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "print", abstract: "Print the effective configuration (the embedded default when no file is given) as YAML.")

        @Argument(help: "Configuration files, merged in order.")
        var files: [String] = []

        func run() throws {
            print(ConfigurationWriter.yaml(try loadConfiguration(files)), terminator: "")
        }
    }

    struct Schema: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "schema",
            abstract: "Print the configuration's JSON Schema (draft 2020-12), generated from the same field tables as the loader.")

        func run() throws {
            print(ConfigurationSchema.jsonSchemaText, terminator: "")
        }
    }
}
