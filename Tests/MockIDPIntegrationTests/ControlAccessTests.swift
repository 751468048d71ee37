import Foundation
import MockIDPTesting
import Testing

/// The control API's access rule with the real binary: loopback only without `--admin-token`, the token for every
/// caller with it, `--no-admin` off; and a caller from another network namespace (a non-loopback address).
@Suite(.serialized) struct ControlAccessTests {
    @Test("with --admin-token every caller needs the bearer token (401 otherwise); health stays open")
    func adminToken() async throws {
        try await CommandLineTests.withServe(["--admin-token", "let-me-in"]) { server in
            let missing = try await server.get("/_mockidp/requests")
            #expect(missing.status == 401 && missing.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
            let wrong = try await server.execute("POST", "/_mockidp/keys/rotate", headers: ["Authorization": "Bearer let-me-out"])
            #expect(wrong.status == 401)
            let basic = try await server.get("/_mockidp/faults", headers: ["Authorization": "Basic bGV0LW1lLWlu"])
            #expect(basic.status == 401)
            let right = try await server.execute("POST", "/_mockidp/clock", headers: ["Authorization": "Bearer let-me-in"],
                                                 body: Array(#"{"advance": 1}"#.utf8))
            #expect(right.status == 200)
            #expect(try await server.get("/_mockidp/health").status == 200)
            let log = try await server.get("/_mockidp/requests", headers: ["Authorization": "bearer let-me-in"])
            let reasons = log.json["requests"]?.arrayValue?.compactMap { $0["reason"]?.stringValue } ?? []
            #expect(reasons.contains { $0.contains("no Authorization: Bearer") }, "\(log.text)")
            #expect(reasons.contains { $0.contains("not the server's --admin-token") })
            #expect(!log.text.contains("let-me-out"))
        }
    }

    @Test("--no-admin answers 404 on every control call; health is still 200")
    func noAdmin() async throws {
        try await CommandLineTests.withServe(["--no-admin"]) { server in
            for (method, path) in [("POST", "faults"), ("GET", "requests"), ("POST", "keys/rotate"), ("POST", "reset"),
                                   ("POST", "tenants/contoso.onmicrosoft.com/users"), ("POST", "clock"), ("POST", "claims")] {
                let r = try await server.execute(method, "/_mockidp/" + path, body: method == "POST" ? Array("{}".utf8) : nil)
                #expect(r.status == 404, "\(method) \(path)")
            }
            #expect(try await server.get("/_mockidp/health").status == 200)
        }
    }

    // The caller must sit in another network namespace, so it is a process there (curl through `ip netns exec`), not
    // this process's client.
    @Test("from another network namespace: 403 without --admin-token, the token works with it",
          .enabled(if: NetworkNamespace.isPermitted, "network namespaces need root and iproute2 (ip netns add failed)"))
    func remoteCaller() async throws {
        let ns = try NetworkNamespace()
        defer { ns.remove() }
        try await CommandLineTests.withServe(["--host", ns.hostAddress]) { server in
            let base = server.baseURL
            let control = try ns.curl(base + "/_mockidp/requests")
            #expect(control.status == 403, "\(control.body)")
            #expect(control.body.contains("loopback"))
            #expect(try ns.curl(base + "/_mockidp/health").status == 200)
            #expect(try ns.curl(base + "/6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11/v2.0/.well-known/openid-configuration").status == 200)
        }
        try await CommandLineTests.withServe(["--host", ns.hostAddress, "--admin-token", "from-afar"]) { server in
            let base = server.baseURL
            #expect(try ns.curl(base + "/_mockidp/requests").status == 401)
            let allowed = try ns.curl(base + "/_mockidp/requests", headers: ["Authorization: Bearer from-afar"])
            #expect(allowed.status == 200 && allowed.body.contains("\"requests\""), "\(allowed.body)")
        }
    }
}

/// A network namespace joined to the host by a veth pair: the server listens on the host side, a client runs inside.
struct NetworkNamespace {
    let name: String
    let hostInterface: String
    let hostAddress: String
    let clientAddress: String

    /// Whether this machine lets us create one (root with iproute2).
    static let isPermitted: Bool = {
        guard getuid() == 0 else { return false }
        let probe = "mockidp-probe-\(getpid())"
        guard (try? run(["ip", "netns", "add", probe]))?.status == 0 else { return false }
        _ = try? run(["ip", "netns", "del", probe])
        return true
    }()

    init() throws {
        let n = UInt32.random(in: 0..<0xFFFF)
        name = "mockidp-ctl-\(n)"
        hostInterface = "mih\(n)"
        let clientInterface = "mic\(n)"
        let (a, b) = (20 + Int(n >> 8) % 200, Int(n & 0xFF) & 0xFC)
        hostAddress = "10.\(a).\(b).1"
        clientAddress = "10.\(a).\(b).2"
        for command in [
            ["ip", "netns", "add", name],
            ["ip", "link", "add", hostInterface, "type", "veth", "peer", "name", clientInterface],
            ["ip", "link", "set", clientInterface, "netns", name],
            ["ip", "addr", "add", "\(hostAddress)/30", "dev", hostInterface],
            ["ip", "link", "set", hostInterface, "up"],
            ["ip", "netns", "exec", name, "ip", "addr", "add", "\(clientAddress)/30", "dev", clientInterface],
            ["ip", "netns", "exec", name, "ip", "link", "set", clientInterface, "up"],
            ["ip", "netns", "exec", name, "ip", "link", "set", "lo", "up"],
        ] {
            let r = try Self.run(command)
            guard r.status == 0 else {
                remove()
                throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "\(command.joined(separator: " ")): \(r.output)"])
            }
        }
    }

    /// Deletes the namespace (which takes the veth pair with it).
    func remove() {
        _ = try? Self.run(["ip", "netns", "del", name])
        _ = try? Self.run(["ip", "link", "del", hostInterface])
    }

    /// GET `url` with curl from inside the namespace: status and body.
    func curl(_ url: String, headers: [String] = []) throws -> (status: Int, body: String) {
        var command = ["ip", "netns", "exec", name, "curl", "-s", "--max-time", "10", "-w", "\n%{http_code}"]
        for h in headers { command += ["-H", h] }
        let r = try Self.run(command + [url])
        let lines = r.output.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = arguments
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
