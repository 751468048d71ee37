import Foundation
import Logging
import MockIDP
import MockIDPConfiguration
import MockIDPJOSE
import MockIDPTesting
import Testing

/// The state directory under concurrent first starts and after a crash between two writes.
@Suite struct StateDirectoryTests {
    static func file(_ directory: String, _ name: String) throws -> String {
        try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
    }

    @Test("two serve processes started at once on a new state directory publish the same key")
    func twoServersAtOnce() async throws {
        let root = CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let stateDir = root + "/state"
        let processes = (0..<2).map { i -> Process in
            let p = Process()
            p.executableURL = URL(fileURLWithPath: CommandLineTests.binary)
            p.arguments = ["serve", "--no-tls", "--port", "0", "--state-dir", stateDir, "--ready-file", root + "/ready\(i)",
                           "--log-level", "warning"]
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            return p
        }
        for p in processes { try p.run() }
        defer {
            for p in processes where p.isRunning {
                p.terminate()
                p.waitUntilExit()
            }
        }
        var kids: Set<String> = []
        for i in 0..<2 {
            let ready = root + "/ready\(i)"
            let deadline = Date().addingTimeInterval(20)
            while !FileManager.default.fileExists(atPath: ready), Date() < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            let base = try String(contentsOfFile: ready, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            let keys = try await withMockIDPClient(baseURL: base) { try await $0.get("/common/discovery/v2.0/keys") }
            for key in keys.json["keys"]?.arrayValue ?? [] { if let kid = key["kid"]?.stringValue { kids.insert(kid) } }
        }
        #expect(kids.count == 1, "\(kids)")
    }

    @Test("a server key without its certificate (a crash between the writes) gets a matching certificate at the next start")
    func serverKeyWithoutCertificate() async throws {
        let directory = CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var logger = Logger(label: "mockidp.state-tests")
        logger.logLevel = .critical
        let options = ServerOptions(host: "127.0.0.1", ports: [0], tls: true, stateDirectory: directory)
        let configuration = try ConfigurationLoader.load(paths: [])
        _ = try MockIdentityProviderServer(configuration: configuration, options: options, logger: logger)
        // The crash: a new key reached the disk, its certificate did not (the old one is still there).
        try PrivateKey.generateECP256().pkcs8PEM.write(toFile: directory + "/server-key.pem", atomically: true, encoding: .utf8)
        let server = try MockIdentityProviderServer(configuration: configuration, options: options, logger: logger)
        try server.start()
        server.stop(gracePeriod: .milliseconds(100))
        let key = try PrivateKey(pem: try Self.file(directory, "server-key.pem"))
        let leaf = try #require(try Certificate.parseChain(pem: try Self.file(directory, "server.pem")).first)
        #expect(try leaf.publicKey.pem == key.publicKey.pem)
    }

    @Test("a signing key without its certificate is certified at the next start, and kept")
    func signingKeyWithoutCertificate() throws {
        let directory = CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try StateDirectory(path: directory).signingKey()
        try FileManager.default.removeItem(atPath: directory + "/signing-cert.pem")
        let again = try StateDirectory(path: directory).signingKey()
        #expect(try again.privateKey.publicKey.pem == first.privateKey.publicKey.pem)
        #expect(try again.certificate.publicKey.pem == first.privateKey.publicKey.pem)
        #expect(try StateDirectory(path: directory).signingKey().keyID == again.keyID)
    }

    @Test("a new state directory and each parent it makes get mode 0700; a path through a file is refused")
    func createdWithParents() throws {
        let root = CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        _ = try StateDirectory(path: root + "/a/b/state/").identityHeader()
        for directory in ["/a", "/a/b", "/a/b/state"] {
            let mode = try FileManager.default.attributesOfItem(atPath: root + directory)[.posixPermissions] as? Int
            #expect(mode == 0o700, "\(directory)")
        }
        #expect(FileManager.default.fileExists(atPath: root + "/a/b/state/identity-header"))

        try "x".write(toFile: root + "/file", atomically: true, encoding: .utf8)
        #expect { try StateDirectory(path: root + "/file/state").identityHeader() } throws: { error in
            "\(error)" == "cannot create the state directory \(root)/file/state: \(root)/file is not a directory"
        }
        #expect { try StateDirectory(path: root + "/file").identityHeader() } throws: { error in
            "\(error)" == "\(root)/file exists and is not a directory"
        }
    }

    @Test("a saved file is read as Foundation read it: a byte order mark at the start is dropped")
    func byteOrderMark() throws {
        let directory = CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let saved = Data([0xEF, 0xBB, 0xBF]) + Data("kept-secret\n".utf8)
        try saved.write(to: URL(fileURLWithPath: directory + "/identity-header"))
        #expect(try StateDirectory(path: directory).identityHeader() == "kept-secret")
    }
}
