import ArgumentParser
import MockIDP

/// Where `serve` listens and keeps its state, each option with its `MOCKIDP_` variable: `serve` takes them to listen,
/// and `env` the same ones to print what reaches that server.
struct ListenerOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Address to listen on. Env: MOCKIDP_HOST.", valueName: "addr"))
    var host: String?

    @Option(name: .long, help: ArgumentHelp("Port to listen on (0: any free port); repeat for several. Env: MOCKIDP_PORT (','-separated).", valueName: "n"))
    var port: [Int] = []

    @Flag(name: .long, help: "Serve plain HTTP instead of HTTPS.")
    var noTls = false

    @Option(name: .long, help: ArgumentHelp("Where the CA, server certificate and signing keys are kept. Env: MOCKIDP_STATE_DIR.", valueName: "dir"))
    var stateDir: String?

    @Option(name: .long, help: ArgumentHelp("Fixed scheme://host[:port] for issuers and endpoint URLs. Env: MOCKIDP_PUBLIC_URL.", valueName: "url"))
    var publicUrl: String?

    func validate() throws {
        for p in port where !(0...65535).contains(p) { throw ValidationError("--port must be between 0 and 65535, got \(p)") }
        if let url = publicUrl ?? environment("MOCKIDP_PUBLIC_URL") { try Self.checkPublicURL(url) }
        if let p = environment("MOCKIDP_PORT"), port.isEmpty {
            for item in p.split(separator: ",") where UInt16(item) == nil {
                throw ValidationError("MOCKIDP_PORT must be a comma-separated list of ports, got '\(p)'")
            }
        }
    }

    /// `--host`, else `MOCKIDP_HOST`, else loopback.
    var address: String { host ?? environment("MOCKIDP_HOST") ?? "127.0.0.1" }

    /// `--port`s, else `MOCKIDP_PORT`'s, else 8443.
    var ports: [UInt16] {
        if !port.isEmpty { return port.map { UInt16($0) } }
        if let env = environment("MOCKIDP_PORT") { return env.split(separator: ",").compactMap { UInt16($0) } }
        return [8443]
    }

    /// `--public-url`, else `MOCKIDP_PUBLIC_URL`, without a trailing slash.
    var publicURL: String? {
        guard let url = publicUrl ?? environment("MOCKIDP_PUBLIC_URL") else { return nil }
        return url.hasSuffix("/") ? String(url.dropLast()) : url
    }

    /// `--state-dir`, else `MOCKIDP_STATE_DIR`, else `.mockidp`.
    var stateDirectory: String { stateDir ?? environment("MOCKIDP_STATE_DIR") ?? ".mockidp" }

    /// `--public-url` (and `mockidp token`'s) is `scheme://host[:port]`, with no path, query or fragment.
    static func checkPublicURL(_ url: String) throws {
        let lower = url.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
            throw ValidationError("--public-url must start with http:// or https://, got '\(url)'")
        }
        let rest = url.drop(while: { $0 != "/" }).dropFirst(2)
        guard !rest.isEmpty, !rest.contains("/") || rest.hasSuffix("/") && rest.filter({ $0 == "/" }).count == 1,
              !rest.contains("?"), !rest.contains("#") else {
            throw ValidationError("--public-url must be scheme://host[:port] with no path, got '\(url)'")
        }
    }
}
