import ArgumentParser
import MockIDP
@testable import mockidp
import Testing

/// The command line as ArgumentParser reads it, without running anything: each subcommand's flags and defaults, and
/// every refusal of `validate()` with its sentence and exit 64 (docs/command-line.md).
@Suite struct MockIDPCommandTests {
    /// What parsing `arguments` refused: the message printed after `Error:` and the exit status; nil when it parsed.
    static func refusal(_ arguments: [String]) -> (message: String, status: Int32)? {
        do {
            _ = try MockIDPCommand.parseAsRoot(arguments)
            return nil
        } catch {
            return (MockIDPCommand.message(for: error), MockIDPCommand.exitCode(for: error).rawValue)
        }
    }

    /// `arguments` parsed as the subcommand `T`.
    static func parse<T: ParsableCommand>(_ arguments: [String], as type: T.Type = T.self,
                                          sourceLocation: SourceLocation = #_sourceLocation) throws -> T {
        let command = try MockIDPCommand.parseAsRoot(arguments)
        return try #require(command as? T, "\(arguments) parsed as \(Swift.type(of: command))", sourceLocation: sourceLocation)
    }

    // MARK: the root

    @Test("the root names every subcommand of the interface, and its version is the server's")
    func root() throws {
        let names = MockIDPCommand.configuration.subcommands.compactMap { $0.configuration.commandName }
        #expect(names == ["serve", "config", "env", "token", "probe"])
        #expect(MockIDPCommand.configuration.version == MockIDPVersion.current && !MockIDPVersion.current.isEmpty)
        let version = try #require(Self.refusal(["--version"]))
        #expect(version.status == 0 && version.message == MockIDPVersion.current)
        let help = MockIDPCommand.helpMessage()
        #expect(help.contains("USAGE: mockidp <subcommand>"), "\(help)")
        for name in names { #expect(help.contains("  \(name)"), "\(name) is not in the help: \(help)") }
    }

    @Test("an unknown subcommand or flag is a bad command line (64)")
    func unknownWords() throws {
        let subcommand = try #require(Self.refusal(["serv"]))
        #expect(subcommand.status == 64 && subcommand.message.contains("serv"), "\(subcommand.message)")
        let flag = try #require(Self.refusal(["serve", "--prot", "0"]))
        #expect(flag.status == 64 && flag.message.contains("--prot"), "\(flag.message)")
    }

    // MARK: serve

    @Test("serve with no flags: every default of the interface (the environment fills in what is nil at run time)")
    func serveDefaults() throws {
        let serve = try Self.parse(["serve"], as: Serve.self)
        #expect(serve.config.isEmpty && serve.listener.host == nil && serve.listener.port.isEmpty && serve.httpPort.isEmpty)
        #expect(!serve.listener.noTls && serve.listener.stateDir == nil && serve.listener.publicUrl == nil && serve.readyFile == nil)
        #expect(serve.logLevel.rawValue == "info")
        #expect(serve.adminToken == nil && !serve.noAdmin && serve.identityHeader == nil)
        #expect(serve.limitOptions.limits == ServerLimits())
    }

    @Test("serve takes every flag of the interface; --config, --port and --http-port repeat")
    func serveFlags() throws {
        let serve = try Self.parse([
            "serve", "--config", "a.yaml", "--config", "b.yaml", "--host", "0.0.0.0", "--port", "8443", "--port", "443",
            "--http-port", "80", "--http-port", "0", "--no-tls", "--state-dir", "var/mockidp", "--public-url", "https://idp.test:9443",
            "--ready-file", "ready", "--log-level", "debug", "--admin-token", "let-me-in", "--no-admin", "--identity-header", "s3cret",
            "--max-connections", "10", "--max-connections-per-ip", "2", "--connection-timeout", "5", "--max-body-size", "0",
            "--max-header-size", "8192",
        ], as: Serve.self)
        #expect(serve.config == ["a.yaml", "b.yaml"] && serve.listener.host == "0.0.0.0")
        #expect(serve.listener.port == [8443, 443] && serve.httpPort == [80, 0] && serve.listener.noTls)
        #expect(serve.listener.stateDir == "var/mockidp" && serve.listener.publicUrl == "https://idp.test:9443" && serve.readyFile == "ready")
        #expect(serve.logLevel.rawValue == "debug" && serve.adminToken == "let-me-in" && serve.noAdmin)
        #expect(serve.identityHeader == "s3cret")
        #expect(serve.limitOptions.limits == ServerLimits(connections: 10, connectionsPerAddress: 2, connectionTimeout: 5,
                                                          bodySize: 0, headerSize: 8192))
    }

    @Test("serve refuses what it cannot serve, each with its sentence and exit 64", arguments: [
        (["--port", "70000"], "--port must be between 0 and 65535, got 70000"),
        (["--port=-1"], "--port must be between 0 and 65535, got -1"),
        (["--http-port", "65536"], "--http-port must be between 0 and 65535, got 65536"),
        (["--public-url", "ftp://x"], "--public-url must start with http:// or https://, got 'ftp://x'"),
        (["--public-url", "https://idp.test/tenant"], "--public-url must be scheme://host[:port] with no path, got 'https://idp.test/tenant'"),
        (["--public-url", "https://idp.test?x=1"], "--public-url must be scheme://host[:port] with no path, got 'https://idp.test?x=1'"),
        (["--public-url", "https://"], "--public-url must be scheme://host[:port] with no path, got 'https://'"),
        (["--admin-token", ""], "--admin-token must not be empty: give the token callers send as Authorization: Bearer TOKEN, or leave the flag out"),
        (["--admin-token", "  "], "--admin-token must not be empty: give the token callers send as Authorization: Bearer TOKEN, or leave the flag out"),
        (["--identity-header", " "], "--identity-header must not be empty: give the secret clients send as X-IDENTITY-HEADER, or leave the flag out for a generated one"),
        (["--max-connections", "0"], "--max-connections must be at least 1, got 0"),
        (["--max-connections-per-ip=-1"], "--max-connections-per-ip must be 0 (no limit) or more, got -1"),
        (["--connection-timeout", "0"], "--connection-timeout must be at least 1 second, got 0"),
        (["--max-body-size=-5"], "--max-body-size must not be negative, got -5"),
        (["--max-header-size", "100"], "--max-header-size must be at least 8192 bytes, got 100"),
    ])
    func serveRefusals(flags: [String], message: String) throws {
        let refused = try #require(Self.refusal(["serve"] + flags), "\(flags) parsed")
        #expect(refused.message == message)
        #expect(refused.status == 64)
    }

    @Test("serve's values that are not numbers or levels are refused by the parser, naming the flag (64)", arguments: [
        (["--port", "seventy"], "--port"), (["--log-level", "loud"], "--log-level"), (["--max-body-size", "lots"], "--max-body-size"),
    ])
    func serveBadValues(flags: [String], flag: String) throws {
        let refused = try #require(Self.refusal(["serve"] + flags), "\(flags) parsed")
        #expect(refused.status == 64 && refused.message.contains(flag) && refused.message.contains(flags[1]), "\(refused.message)")
    }

    @Test("serve's fast path parses `mockidp serve …` alone, and leaves everything else to the whole command")
    func serveParsedAlone() throws {
        let serve = try #require(Serve.parsedAlone(["mockidp", "serve", "--port", "0", "--no-tls"]))
        #expect(serve.listener.port == [0] && serve.listener.noTls)
        #expect(Serve.parsedAlone(["mockidp", "serve", "--help"]) == nil)
        #expect(Serve.parsedAlone(["mockidp", "serve", "--version"]) == nil)
        #expect(Serve.parsedAlone(["mockidp", "serve", "--port", "70000"]) == nil)
        #expect(Serve.parsedAlone(["mockidp", "token", "--client", "x"]) == nil)
        #expect(Serve.parsedAlone(["mockidp"]) == nil)
    }

    // MARK: config

    @Test("config check needs at least one file and keeps their order; print takes none or several; schema takes none")
    func config() throws {
        let check = try Self.parse(["config", "check", "b.yaml", "a.yaml"], as: Config.Check.self)
        #expect(check.files == ["b.yaml", "a.yaml"])
        // The files argument has no default, so the parser itself asks for one before validate() would.
        let none = try #require(Self.refusal(["config", "check"]))
        #expect(none.status == 64 && none.message.contains("<files>"), "\(none.message)")
        #expect(try Self.parse(["config", "print"], as: Config.Print.self).files.isEmpty)
        #expect(try Self.parse(["config", "print", "a.yaml", "b.yaml"], as: Config.Print.self).files == ["a.yaml", "b.yaml"])
        _ = try Self.parse(["config", "schema"], as: Config.Schema.self)
        let extra = try #require(Self.refusal(["config", "schema", "a.yaml"]))
        #expect(extra.status == 64 && extra.message.contains("a.yaml"), "\(extra.message)")
        #expect(Self.refusal(["config", "lint", "a.yaml"])?.status == 64)
    }

    // MARK: env

    @Test("env with no flags is sh for serve's defaults; it takes serve's listener flags")
    func env() throws {
        let plain = try Self.parse(["env"], as: EnvCommand.self)
        #expect(plain.shell == nil && plain.format == nil && plain.listener.host == nil && plain.listener.port.isEmpty && !plain.listener.noTls)
        #expect(plain.httpPort == nil && plain.identityHeader == nil && plain.listener.stateDir == nil && plain.listener.publicUrl == nil)
        let full = try Self.parse(["env", "--shell", "fish", "--host", "::", "--port", "9443", "--no-tls", "--http-port", "8080",
                                   "--identity-header", "s3cret", "--state-dir", "state", "--public-url", "https://idp.test"],
                                  as: EnvCommand.self)
        #expect(full.shell?.rawValue == "fish" && full.listener.host == "::" && full.listener.port == [9443] && full.listener.noTls)
        #expect(full.httpPort == 8080 && full.identityHeader == "s3cret" && full.listener.stateDir == "state" && full.listener.publicUrl == "https://idp.test")
        #expect(try Self.parse(["env", "--format", "dotenv"], as: EnvCommand.self).format?.rawValue == "dotenv")
        #expect(try Self.parse(["env", "--shell", "powershell"], as: EnvCommand.self).shell?.rawValue == "powershell")
    }

    @Test("env refuses conflicting formats and ports it cannot name, each with its sentence and exit 64", arguments: [
        (["--shell", "dotenv"], "--shell must be sh, fish or powershell; for a dotenv file use --format dotenv"),
        (["--format", "sh"], "--format must be dotenv (for a shell, use --shell sh)"),
        (["--shell", "fish", "--format", "dotenv"], "give --shell or --format, not both"),
        (["--port", "70000"], "--port must be between 0 and 65535, got 70000"),
        (["--port", "0"], "--port 0 picks a free port only when serve starts: name the port serve listens on, or --public-url"),
        (["--public-url", "idp.test"], "--public-url must start with http:// or https://, got 'idp.test'"),
        (["--http-port", "0"], "--http-port must be the port serve's plain-HTTP listener uses (1-65535), got 0"),
        (["--identity-header", ""], "--identity-header must not be empty: give the secret clients send as X-IDENTITY-HEADER, or leave the flag out for a generated one"),
    ])
    func envRefusals(flags: [String], message: String) throws {
        let refused = try #require(Self.refusal(["env"] + flags), "\(flags) parsed")
        #expect(refused.message == message)
        #expect(refused.status == 64)
    }

    @Test("env --port 0 is fine with --public-url, which names the port instead")
    func envPortZeroWithPublicURL() throws {
        _ = try Self.parse(["env", "--port", "0", "--public-url", "https://idp.test:9443"], as: EnvCommand.self)
        #expect(Self.refusal(["env", "--shell", "csh"])?.status == 64)
    }

    // MARK: token

    @Test("token: --client is required; the rest default to an access token from the configuration's first tenant")
    func tokenDefaults() throws {
        let missing = try #require(Self.refusal(["token"]))
        #expect(missing.status == 64 && missing.message.contains("--client"), "\(missing.message)")
        let token = try Self.parse(["token", "--client", "c"], as: TokenCommand.self)
        #expect(token.mint.client == "c" && token.mint.config.isEmpty && token.mint.stateDir == nil && token.mint.tenant == nil)
        #expect(token.mint.user == nil && token.mint.scope.isEmpty && token.mint.claim.isEmpty && token.mint.lifetime == nil)
        #expect(token.mint.kind.rawValue == "access" && token.mint.publicUrl == nil && token.mint.tokenVersion == nil)
        #expect(token.defect == nil)
    }

    @Test("token takes every flag, --issuer-url and --version as aliases, and a defect by its name")
    func tokenFlags() throws {
        let token = try Self.parse([
            "token", "--config", "a.yaml", "--state-dir", "s", "--tenant", "contoso.onmicrosoft.com", "--client", "c",
            "--user", "alice@contoso.onmicrosoft.com", "--scope", "openid", "--scope", "User.Read", "--claim", "a=1", "--claim", "b=x=y",
            "--lifetime", "60", "--kind", "id", "--issuer-url", "http://127.0.0.1:9", "--version", "1", "--defect", "expired",
        ], as: TokenCommand.self)
        #expect(token.mint.config == ["a.yaml"] && token.mint.stateDir == "s" && token.mint.tenant == "contoso.onmicrosoft.com")
        #expect(token.mint.user == "alice@contoso.onmicrosoft.com" && token.mint.scope == ["openid", "User.Read"])
        #expect(token.mint.claim == ["a=1", "b=x=y"] && token.mint.lifetime == 60 && token.mint.kind.rawValue == "id")
        #expect(token.mint.publicUrl == "http://127.0.0.1:9" && token.mint.tokenVersion == 1)
        #expect(token.defect?.rawValue == "expired")
        let long = try Self.parse(["token", "--client", "c", "--public-url", "https://idp.test", "--kind", "id", "--user", "u",
                                   "--token-version", "2"], as: TokenCommand.self)
        #expect(long.mint.publicUrl == "https://idp.test" && long.mint.tokenVersion == 2)
    }

    @Test("token refuses what cannot be minted, each with its sentence and exit 64", arguments: [
        (["--lifetime", "0"], "--lifetime must be a positive number of seconds, got 0"),
        (["--kind", "id", "--user", "u", "--token-version", "3"], "--token-version must be 1 or 2, got 3"),
        (["--token-version", "1"], "--token-version applies to ID tokens; an access token takes its API's accessTokenVersion"),
        (["--kind", "id"], "an ID token needs --user"),
        (["--claim", "novalue"], "--claim must be name=value, got 'novalue'"),
        (["--claim", "=value"], "--claim must be name=value, got '=value'"),
        (["--public-url", "https://idp.test/path"], "--public-url must be scheme://host[:port] with no path, got 'https://idp.test/path'"),
    ])
    func tokenRefusals(flags: [String], message: String) throws {
        let refused = try #require(Self.refusal(["token", "--client", "c"] + flags), "\(flags) parsed")
        #expect(refused.message == message)
        #expect(refused.status == 64)
    }

    @Test("token refuses an unknown defect or kind by name, listing the ones it knows (64)")
    func tokenUnknownNames() throws {
        let defect = try #require(Self.refusal(["token", "--client", "c", "--defect", "slightly-off"]))
        #expect(defect.status == 64 && defect.message.contains("slightly-off") && defect.message.contains("--defect"), "\(defect.message)")
        #expect(defect.message.contains("bad-signature") && defect.message.contains("expired"), "\(defect.message)")
        let kind = try #require(Self.refusal(["token", "--client", "c", "--kind", "refresh"]))
        #expect(kind.status == 64 && kind.message.contains("refresh") && kind.message.contains("--kind"), "\(kind.message)")
    }

    // MARK: probe

    @Test("probe: the URL and --client are required; GET, no headers, the system's CAs and a table by default")
    func probeDefaults() throws {
        #expect(Self.refusal(["probe", "--client", "c"])?.status == 64)
        #expect(Self.refusal(["probe", "http://localhost:5000/api"])?.status == 64)
        let probe = try Self.parse(["probe", "http://localhost:5000/api", "--client", "c"], as: ProbeCommand.self)
        #expect(probe.url == "http://localhost:5000/api" && probe.method == "GET" && probe.headers.isEmpty)
        #expect(probe.cacert == nil && !probe.insecure && !probe.json && probe.mint.client == "c")
        let full = try Self.parse(["probe", "https://api.test/orders", "--method", "POST", "--header", "X-A: 1", "--header", "X-B:2",
                                   "--cacert", "ca.pem", "--insecure", "--json", "--client", "c", "--scope", "api://orders/.default"],
                                  as: ProbeCommand.self)
        #expect(full.method == "POST" && full.headers == ["X-A: 1", "X-B:2"] && full.cacert == "ca.pem" && full.insecure && full.json)
        #expect(full.mint.scope == ["api://orders/.default"])
    }

    @Test("probe refuses a URL, method or header it cannot send, and the token options token refuses (64)", arguments: [
        (["ftp://api.test/x"], "the URL must be http://host[:port]/path or https://…, got 'ftp://api.test/x'"),
        (["http://"], "the URL must be http://host[:port]/path or https://…, got 'http://'"),
        (["http://api.test/x", "--method", "GE T"], "--method must be an HTTP method such as GET"),
        (["http://api.test/x", "--method", ""], "--method must be an HTTP method such as GET"),
        (["http://api.test/x", "--header", "no colon"], "--header must be 'Name: value', got 'no colon'"),
        (["http://api.test/x", "--header", ": value"], "--header must be 'Name: value', got ': value'"),
        (["http://api.test/x", "--lifetime=-1"], "--lifetime must be a positive number of seconds, got -1"),
        (["http://api.test/x", "--kind", "id"], "an ID token needs --user"),
    ])
    func probeRefusals(arguments: [String], message: String) throws {
        let refused = try #require(Self.refusal(["probe", "--client", "c"] + arguments), "\(arguments) parsed")
        #expect(refused.message == message)
        #expect(refused.status == 64)
    }
}
