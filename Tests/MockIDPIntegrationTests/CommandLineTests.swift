import Foundation
import MockIDPJOSE
import MockIDPTesting
import Testing

/// The `mockidp` binary as users run it: flags, exit codes, the listening line, the ready file, signals, state.
@Suite(.serialized) struct CommandLineTests {
    /// The binary sits beside the test bundle in SwiftPM's build folder.
    static var binary: String {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        var dir = bundle
        while dir.path != "/" {
            let candidate = dir.appendingPathComponent("mockidp").path
            if FileManager.default.isExecutableFile(atPath: candidate), !candidate.hasSuffix(".xctest") { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return bundle.appendingPathComponent("mockidp").path
    }

    static func temporaryDirectory() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mockidp-cli-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Run {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Run(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }

    /// Starts `serve`, waits for the ready file, returns the process, its first base URL and the stdout pipe.
    static func serve(_ extra: [String], stateDir: String) throws -> (Process, String, Pipe) {
        let ready = stateDir + "/ready"
        try? FileManager.default.removeItem(atPath: ready)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = ["serve", "--state-dir", stateDir, "--ready-file", ready, "--log-level", "warning"] + extra
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: ready) {
            guard p.isRunning, Date() < deadline else { throw CocoaError(.fileNoSuchFile) }
            usleep(10_000)
        }
        let url = try String(contentsOfFile: ready, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        return (p, url, out)
    }

    /// Runs `mockidp serve --no-tls --port 0` with `extra` flags on `stateDir` (a temporary one, removed afterwards,
    /// when nil), and `body` with a client for its first listener (MockIDPTesting's, over real sockets); then stops
    /// it. The one way the suites that test the binary's own flags reach it.
    static func withServe<Result>(_ extra: [String], stateDir: String? = nil,
                                  _ body: (MockIDPClient) async throws -> Result) async throws -> Result {
        let directory = stateDir ?? temporaryDirectory()
        defer { if stateDir == nil { try? FileManager.default.removeItem(atPath: directory) } }
        let (process, url, _) = try serve(["--no-tls", "--port", "0"] + extra, stateDir: directory)
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        return try await withMockIDPClient(baseURL: url) { try await body($0) }
    }

    @Test("--version prints the version and exits 0")
    func version() throws {
        let r = try Self.run(["--version"])
        #expect(r.status == 0 && !r.stdout.isEmpty)
    }

    @Test("serve's help, version, completion script and mistakes are the whole command's: usage names `mockidp serve`")
    func serveAnswersAsSubcommand() throws {
        let help = try Self.run(["serve", "--help"])
        #expect(help.status == 0 && help.stdout.contains("USAGE: mockidp serve <options>"), "\(help.stdout)")
        let version = try Self.run(["serve", "--version"]), plain = try Self.run(["--version"])
        #expect(version.status == 0 && !version.stdout.isEmpty && version.stdout == plain.stdout)
        let script = try Self.run(["serve", "--generate-completion-script", "bash"])
        let rootScript = try Self.run(["--generate-completion-script", "bash"])
        #expect(script.status == 0 && script.stdout == rootScript.stdout)
        #expect(script.stdout.contains("__mockidp_"))
        let bad = try Self.run(["serve", "--port", "seventy"])
        #expect(bad.status == 64 && bad.stderr.contains("Usage: mockidp serve <options>"), "\(bad.stderr)")
    }

    @Test("a bad flag exits 64")
    func badFlag() throws {
        #expect(try Self.run(["serve", "--port", "seventy"]).status == 64)
        #expect(try Self.run(["serve", "--port", "70000"]).status == 64)
        #expect(try Self.run(["serve", "--public-url", "ftp://x"]).status == 64)
    }

    @Test("limit flags out of range are a bad command line (64) naming the flag")
    func badLimits() throws {
        for (flags, words) in [(["--max-connections", "0"], "--max-connections must be at least 1"),
                               (["--max-connections-per-ip=-1"], "--max-connections-per-ip must be 0"),
                               (["--connection-timeout", "0"], "--connection-timeout must be at least 1 second"),
                               (["--max-body-size=-5"], "--max-body-size must not be negative"),
                               (["--max-header-size", "100"], "--max-header-size must be at least 8192 bytes")] {
            let r = try Self.run(["serve", "--no-tls", "--port", "0"] + flags)
            #expect(r.status == 64, "\(flags)")
            #expect(r.stderr.contains(words), "\(flags): \(r.stderr)")
        }
    }

    @Test("an empty --admin-token is a bad command line (64), never an empty bearer token that lets everyone in")
    func emptyAdminToken() throws {
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for token in ["", "  "] {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: Self.binary)
            p.arguments = ["serve", "--no-tls", "--port", "0", "--state-dir", dir, "--admin-token", token]
            let err = Pipe()
            p.standardOutput = FileHandle.nullDevice
            p.standardError = err
            try p.run()
            // Before the fix the server started and served; do not wait for it forever.
            let deadline = Date().addingTimeInterval(10)
            while p.isRunning, Date() < deadline { usleep(10_000) }
            if p.isRunning { p.terminate() }
            p.waitUntilExit()
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(p.terminationStatus == 64, "'\(token)': \(stderr)")
            #expect(stderr.contains("--admin-token must not be empty"), "\(stderr)")
        }
    }

    @Test("config check reports FILE:LINE: PATH: reason and exits 78; a good file exits 0")
    func configCheck() throws {
        let dir = Self.temporaryDirectory()
        let bad = dir + "/bad.yaml"
        try "tenants:\n  - id: not-a-guid\n    secrett: x\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let r = try Self.run(["config", "check", bad])
        #expect(r.status == 78)
        #expect(r.stderr.contains("bad.yaml:2:"))
        let broken = dir + "/broken.yaml"
        try "tenants: [\n  - {".write(toFile: broken, atomically: true, encoding: .utf8)
        #expect(try Self.run(["config", "check", broken]).status == 78)
        let printed = try Self.run(["config", "print"])
        #expect(printed.status == 0 && printed.stdout.contains("6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11"))
        let good = dir + "/good.yaml"
        try printed.stdout.write(toFile: good, atomically: true, encoding: .utf8)
        #expect(try Self.run(["config", "check", good]).status == 0)
        #expect(try Self.run(["serve", "--config", bad, "--state-dir", dir + "/s"]).status == 78)
    }

    @Test("serve prints one listening line per port, writes the ready file, and exits 0 on SIGTERM")
    func serveLifecycle() throws {
        let dir = Self.temporaryDirectory()
        let (p, url, out) = try Self.serve(["--port", "0", "--port", "0", "--no-tls"], stateDir: dir)
        #expect(url.hasPrefix("http://127.0.0.1:"))
        kill(p.processIdentifier, SIGTERM)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        let lines = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.hasPrefix("mockidp listening on http://127.0.0.1:") })
        #expect(lines.first == "mockidp listening on \(url)")
    }

    @Test("the state directory keeps keys private and reuses them on restart; a taken port is one clear sentence")
    func stateAndPorts() throws {
        let dir = Self.temporaryDirectory()
        let (p1, url1, _) = try Self.serve(["--port", "0"], stateDir: dir)
        for file in ["signing-key.pem", "ca-key.pem", "server-key.pem"] {
            let mode = try FileManager.default.attributesOfItem(atPath: "\(dir)/\(file)")[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(file)")
        }
        let kid1 = try String(contentsOfFile: dir + "/signing-cert.pem", encoding: .utf8)
        let port = url1.split(separator: ":").last.map(String.init) ?? "0"
        let clash = try Self.run(["serve", "--port", port, "--state-dir", dir + "/other"])
        #expect(clash.status == 1)
        #expect(clash.stderr.contains("in use"))
        kill(p1.processIdentifier, SIGTERM)
        p1.waitUntilExit()
        let (p2, _, _) = try Self.serve(["--port", "0"], stateDir: dir)
        #expect(try String(contentsOfFile: dir + "/signing-cert.pem", encoding: .utf8) == kid1)
        kill(p2.processIdentifier, SIGINT)
        p2.waitUntilExit()
        #expect(p2.terminationStatus == 0)
    }

    @Test("environment variables configure serve and a flag wins")
    func environment() async throws {
        let dir = Self.temporaryDirectory()
        let ready = dir + "/ready"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Self.binary)
        p.arguments = ["serve", "--ready-file", ready, "--no-tls", "--log-level", "error"]
        var env = ProcessInfo.processInfo.environment
        env["MOCKIDP_PORT"] = "0"
        env["MOCKIDP_STATE_DIR"] = dir + "/state"
        env["MOCKIDP_PUBLIC_URL"] = "https://idp.example.test:9443"
        p.environment = env
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        defer { kill(p.processIdentifier, SIGTERM); p.waitUntilExit() }
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: ready), Date() < deadline { usleep(10_000) }
        let url = try String(contentsOfFile: ready, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(FileManager.default.fileExists(atPath: dir + "/state/signing-key.pem"))
        let reply = try await withMockIDPClient(baseURL: url) { try await $0.get("/common/v2.0/.well-known/openid-configuration") }
        let doc = try JSONValue.parse(reply.body)
        #expect(doc["token_endpoint"] == "https://idp.example.test:9443/common/oauth2/v2.0/token")
    }
}
