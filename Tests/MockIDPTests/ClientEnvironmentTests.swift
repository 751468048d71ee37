import Foundation
@testable import MockIDP
import Testing

@Suite struct ClientEnvironmentTests {
    private static let awkward = ["/tmp/plain/ca.pem", "/tmp/it's here/ca.pem", "/tmp/$HOME `id` \"q\" \\n/ca.pem",
                                  "/tmp/tab\there/ca.pem", "/tmp/ünï ‘curly’/ca.pem", "", "'", "\\'", "a\\"]

    private func run(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test("the variables name the CA four times and the authority host once, in a fixed order")
    func variables() {
        let environment = ClientEnvironment(caPath: "/x/ca.pem", authorityHost: "https://127.0.0.1:8443")
        #expect(environment.variables.map(\.name) == ["SSL_CERT_FILE", "REQUESTS_CA_BUNDLE", "NODE_EXTRA_CA_CERTS",
                                                      "CURL_CA_BUNDLE", "AZURE_AUTHORITY_HOST"])
        #expect(environment.variables.filter { $0.value == "/x/ca.pem" }.count == 4)
        let more = environment.adding("IDENTITY_HEADER", "h").adding("AZURE_AUTHORITY_HOST", "http://x:1")
        #expect(more.variables.map(\.name).suffix(2) == ["IDENTITY_HEADER", "AZURE_AUTHORITY_HOST"])
        #expect(more.variables.count == 6)
    }

    @Test("each shell's line, as written")
    func lines() throws {
        let environment = ClientEnvironment(caPath: "/s/it's/ca.pem", authorityHost: "https://h:1")
        let sh = try environment.rendered(as: .sh)
        #expect(sh.hasPrefix("export SSL_CERT_FILE='/s/it'\\''s/ca.pem'\n"))
        #expect(sh.hasSuffix("export AZURE_AUTHORITY_HOST='https://h:1'\n"))
        #expect(try environment.rendered(as: .fish).hasPrefix("set -gx SSL_CERT_FILE '/s/it\\'s/ca.pem'\n"))
        #expect(try environment.rendered(as: .powershell).hasPrefix("$env:SSL_CERT_FILE = '/s/it''s/ca.pem'\n"))
        #expect(ClientEnvironment.powerShellQuoted("a‘b’c") == "'a‘‘b’’c'")
        #expect(ClientEnvironment.fishQuoted("a\\b") == "'a\\\\b'")
    }

    @Test("a dotenv file spells plain values bare, others in single quotes, and refuses what no reader agrees on")
    func dotenv() throws {
        let plain = ClientEnvironment(caPath: "/home/me/.mockidp/ca.pem", authorityHost: "https://127.0.0.1:8443")
        #expect(try plain.rendered(as: .dotenv).hasPrefix("SSL_CERT_FILE=/home/me/.mockidp/ca.pem\n"))
        #expect(try plain.rendered(as: .dotenv).hasSuffix("AZURE_AUTHORITY_HOST=https://127.0.0.1:8443\n"))
        let spaced = ClientEnvironment(caPath: "/my state/ca.pem", authorityHost: "https://h:1")
        #expect(try spaced.rendered(as: .dotenv).hasPrefix("SSL_CERT_FILE='/my state/ca.pem'\n"))
        let quoted = ClientEnvironment(caPath: "/it's/ca.pem", authorityHost: "https://h:1")
        #expect(throws: ClientEnvironmentError.self) { try quoted.rendered(as: .dotenv) }
    }

    @Test("sh reads back every value exactly as given")
    func shRoundTrip() throws {
        for value in Self.awkward {
            let script = try ClientEnvironment(caPath: value, authorityHost: "https://h:1").rendered(as: .sh)
            #expect(try run("/bin/sh", ["-c", script + "printf %s \"$CURL_CA_BUNDLE\""]) == value, "\(value)")
        }
    }

    @Test("fish reads back every value exactly as given (when fish is installed)")
    func fishRoundTrip() throws {
        guard let fish = ["/usr/bin/fish", "/bin/fish", "/usr/local/bin/fish"].first(where: FileManager.default.isExecutableFile)
        else { return }
        for value in Self.awkward {
            let script = try ClientEnvironment(caPath: value, authorityHost: "https://h:1").rendered(as: .fish)
            #expect(try run(fish, ["-c", script + "printf %s \"$CURL_CA_BUNDLE\""]) == value, "\(value)")
        }
    }
}
