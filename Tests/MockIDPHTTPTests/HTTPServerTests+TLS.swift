import Foundation
import MockIDPHTTP
import Testing

/// HTTPS, checked by a real TLS client (`curl --cacert`) against certificates the `openssl` CLI makes.
extension HTTPServerTests {
    /// A test CA and a server certificate it issued for localhost, 127.0.0.1 and ::1.
    struct TestPKI {
        var directory: URL
        var caFile: String { directory.appendingPathComponent("ca.pem").path }
        var identity: HTTPServer.TLSIdentity

        /// `leafKey` is an `openssl req -newkey` argument: "ec" or "rsa:2048".
        init(leafKey: String) throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mockidp-http-tls-\(UUID().uuidString)")
            self.directory = directory
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"]
            try Self.openssl(["req", "-x509"] + ec + [
                "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "1", "-subj", "/CN=mockidp HTTP test CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ], in: directory)
            let leafKeyArguments = leafKey == "ec" ? ec : ["-newkey", leafKey]
            try Self.openssl(["req", "-new"] + leafKeyArguments + [
                "-nodes", "-keyout", "leaf.key", "-out", "leaf.csr", "-subj", "/CN=localhost",
                "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1",
            ], in: directory)
            try Self.openssl([
                "x509", "-req", "-in", "leaf.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                "-days", "1", "-out", "leaf.pem", "-copy_extensions", "copy",
            ], in: directory)
            func read(_ name: String) throws -> String {
                try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            }
            identity = HTTPServer.TLSIdentity(
                certificateChainPEM: try read("leaf.pem") + read("ca.pem"),
                privateKeyPEM: try read("leaf.key")
            )
        }

        func remove() {
            try? FileManager.default.removeItem(at: directory)
        }

        private static func openssl(_ arguments: [String], in directory: URL) throws {
            let result = try run("openssl", arguments, in: directory)
            guard result.status == 0 else { throw RawHTTPClient.Failure(description: "openssl \(arguments[0]): \(result.output)") }
        }
    }

    /// Runs a program found on PATH, returning its exit status and standard output plus standard error.
    static func run(_ program: String, _ arguments: [String], in directory: URL? = nil) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        if let directory { process.currentDirectoryURL = directory }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    /// `curl --cacert` against `url`: the status code and the body, or the curl error in the body.
    static func curl(_ url: String, caFile: String, extra: [String] = []) throws -> (status: Int32, output: String) {
        try run("curl", ["-sS", "--max-time", "5", "--cacert", caFile] + extra + [url])
    }

    @Test("HTTPS with an EC P-256 certificate and its CA chain works for curl --cacert", arguments: ["127.0.0.1", "localhost"])
    func tlsWithEC(host: String) throws {
        let pki = try TestPKI(leafKey: "ec")
        defer { pki.remove() }
        let server = try Self.startServer(listeners: [HTTPServer.Listener(host: host, port: 0)], tls: pki.identity)
        defer { server.stop() }
        let listener = try #require(server.boundListeners.first)
        #expect(listener.isSecure)
        #expect(listener.baseURL == "https://\(host):\(listener.port)")
        let result = try Self.curl(listener.baseURL + "/json", caFile: pki.caFile)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output == #"{"status":"ok"}"#)
        let echoed = try Self.curl(listener.baseURL + "/echo", caFile: pki.caFile, extra: ["-D", "-", "-o", "/dev/null"])
        #expect(echoed.output.lowercased().contains("x-secure: true"))
    }

    @Test("HTTPS with an RSA certificate works, and keep-alive holds over TLS")
    func tlsWithRSA() throws {
        let pki = try TestPKI(leafKey: "rsa:2048")
        defer { pki.remove() }
        let server = try Self.startServer(tls: pki.identity)
        defer { server.stop() }
        let base = try #require(server.boundListeners.first).baseURL
        // Two URLs in one curl run share a connection when the server keeps it alive.
        let result = try Self.curl(base + "/json", caFile: pki.caFile, extra: ["-v", base + "/json"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("Re-using existing connection"), "\(result.output)")
        #expect(result.output.components(separatedBy: #"{"status":"ok"}"#).count == 3)
    }

    @Test("a client that does not trust the CA is refused")
    func tlsUntrusted() throws {
        let pki = try TestPKI(leafKey: "ec")
        let other = try TestPKI(leafKey: "ec")
        defer { pki.remove(); other.remove() }
        let server = try Self.startServer(tls: pki.identity)
        defer { server.stop() }
        let result = try Self.curl(try #require(server.boundListeners.first).baseURL + "/json", caFile: other.caFile)
        #expect(result.status == 60, "\(result.output)")
    }

    @Test("a key that is not PEM is a start error, not a crash")
    func tlsBadKey() throws {
        let pki = try TestPKI(leafKey: "ec")
        defer { pki.remove() }
        var identity = pki.identity
        identity.privateKeyPEM = "not a key"
        let error = #expect(throws: HTTPServerError.self) { try Self.startServer(tls: identity) }
        #expect(error?.description.hasPrefix("cannot listen on 127.0.0.1:0: libmicrohttpd could not start") == true, "\(String(describing: error))")
    }
}
