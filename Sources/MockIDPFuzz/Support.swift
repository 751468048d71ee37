import Foundation
import Logging
import MockIDP
import MockIDPConfiguration
import MockIDPCore
import MockIDPHTTP
import MockIDPJOSE

/// The in-process server the request harnesses talk to: the embedded default configuration, a state directory
/// of its own, never started (no socket).
enum Server {
    nonisolated(unsafe) static var requests = 0
    static let directory: String = {
        let path = NSTemporaryDirectory() + "mockidp-fuzz-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()
    nonisolated(unsafe) static var shared: MockIdentityProviderServer = make()

    static func make() -> MockIdentityProviderServer {
        do {
            let configuration = try ConfigurationLoader.load(paths: [])
            let options = ServerOptions(ports: [0], tls: false, stateDirectory: directory + "/state")
            let logger = Logger(label: "fuzz", factory: { _ in SwiftLogNoOpLogHandler() })
            return try MockIdentityProviderServer(configuration: configuration, options: options, logger: logger)
        } catch {
            fatalError("the fuzz server cannot start: \(error)")
        }
    }

    /// Back to the loaded configuration, so state built up by earlier inputs (users, faults, clock) does not
    /// decide later ones.
    static func reset() {
        guard let reset = try? HTTPRequest(method: "POST", target: "/_mockidp/reset",
                                           headers: ["Host": "127.0.0.1", "Content-Type": "application/json"]) else { return }
        _ = shared.respond(to: reset)
    }
}

/// Keys the JWS harness verifies with: made once per process.
struct Keys: @unchecked Sendable {
    let rsa: PrivateKey
    let ec: PrivateKey
    static let shared: Keys = {
        do { return Keys(rsa: try PrivateKey.generateRSA(), ec: try PrivateKey.generateECP256()) } catch {
            fatalError("cannot make the fuzz keys: \(error)")
        }
    }()
}

/// A request in wire form: "METHOD target HTTP/1.1\r\n", header fields up to an empty line, then the body.
/// Inputs that are not shaped so are skipped; the fields and the target are taken as the wire would give them.
enum RawRequest {
    static func parse(_ bytes: UnsafeRawBufferPointer) -> HTTPRequest? {
        let all = Array(bytes)
        let separator: [UInt8] = [13, 10, 13, 10]
        var headEnd = all.count
        var bodyStart = all.count
        if all.count >= 4 {
            for i in 0...(all.count - 4) where all[i..<(i + 4)].elementsEqual(separator) {
                headEnd = i
                bodyStart = i + 4
                break
            }
        }
        let head = String(decoding: all[..<headEnd], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        guard !lines.isEmpty else { return nil }
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
        guard requestLine.count >= 2 else { return nil }
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.add(String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
        }
        return try? HTTPRequest(method: String(requestLine[0]), target: String(requestLine[1]), headers: headers,
                                body: Array(all[bodyStart...]))
    }
}
