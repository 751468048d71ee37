import Foundation
import Glibc
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

/// A real listener for the framing harness: the HTTP layer alone on 127.0.0.1, port 0, started once, with a route
/// that echoes the body.
final class Listener: Sendable {
    /// How a request was met.
    enum Answer: Equatable {
        case response
        case closed
        case silence
    }

    /// Seconds a request may go unanswered before it counts as silence.
    static let wait = 2
    static let shared = Listener()
    private let server: HTTPServer
    private let port: UInt16

    private init() {
        var echo = Router()
        echo.add("/echo") { request, _ in HTTPResponse(body: request.body) }
        let router = echo
        let configuration = HTTPServer.Configuration(listeners: [HTTPServer.Listener(host: "127.0.0.1", port: 0)])
        server = HTTPServer(configuration: configuration, logger: Logger(label: "fuzz", factory: { _ in SwiftLogNoOpLogHandler() })) {
            router.respond(to: $0)
        }
        do { try server.start() } catch { preconditionFailure("the fuzz listener cannot start: \(error)") }
        port = server.boundListeners.first?.port ?? 0
    }

    /// Sends `bytes` on a new connection: whether a response began, the server closed the connection, or neither
    /// came within `wait` seconds; nil when the connection could not be made.
    func send(_ bytes: [UInt8]) -> Answer? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var limit = timeval(tv_sec: Self.wait, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return nil }
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            // The server may answer and close before taking it all (a 431, say): read what it said.
            guard sent > 0 else { break }
            offset += sent
        }
        var buffer = [UInt8](repeating: 0, count: 16)
        let received = recv(fd, &buffer, buffer.count, 0)
        if received > 0 { return .response }
        if received == 0 || errno == ECONNRESET { return .closed }
        return .silence
    }
}
