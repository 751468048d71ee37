import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockIDP
import MockIDPJOSE

/// An HTTP answer as the helpers see it.
struct HTTPReply: Sendable {
    /// The status code.
    var status: Int
    /// Header fields, names lower-cased.
    var headers: [String: String]
    /// The body bytes.
    var body: [UInt8]
    /// The body as JSON (nil when it is not JSON).
    var json: JSONValue? { try? JSONValue.parse(body) }
    /// The body as text, for error messages.
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// How the helpers talk to the in-process server. Plain HTTP goes through URLSession. HTTPS goes through
/// the `curl` command with `--cacert`: URLSession on Linux cannot be told to trust a private CA (its libcurl
/// backend reads no CA setting outside Android), and the helpers must not switch verification off.
enum HTTPTransport: Sendable {
    case urlSession
    case curl(caCertificatePath: String)

    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        return URLSession(configuration: configuration)
    }()

    /// Sends one request and returns the answer, whatever its status.
    func send(_ method: String, _ url: String, headers: [String: String] = [:], body: [UInt8]? = nil) async throws -> HTTPReply {
        switch self {
        case .urlSession: try await Self.sendWithURLSession(method, url, headers: headers, body: body)
        case .curl(let ca): try await Self.sendWithCurl(method, url, headers: headers, body: body, caCertificatePath: ca)
        }
    }

    private static func sendWithURLSession(_ method: String, _ url: String, headers: [String: String], body: [UInt8]?)
        async throws -> HTTPReply {
        guard let target = URL(string: url) else { throw MockIDPError("not a URL: \(url)") }
        var request = URLRequest(url: target)
        request.httpMethod = method
        request.httpBody = body.map { Data($0) }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw MockIDPError("\(url) did not answer with HTTP") }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields { fields["\(name)".lowercased()] = "\(value)" }
        return HTTPReply(status: http.statusCode, headers: fields, body: Array(data))
    }

    private static func sendWithCurl(_ method: String, _ url: String, headers: [String: String], body: [UInt8]?,
                                     caCertificatePath: String) async throws -> HTTPReply {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mockidp-curl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bodyFile = folder.appendingPathComponent("response").path
        let headerFile = folder.appendingPathComponent("headers").path
        // `Expect:` off: no 100-continue round trip for larger bodies.
        var arguments = ["--silent", "--show-error", "--cacert", caCertificatePath, "--request", method,
                         "--output", bodyFile, "--dump-header", headerFile, "--max-time", "30", "--header", "Expect:"]
        for (name, value) in headers { arguments += ["--header", "\(name): \(value)"] }
        if let body {
            let requestFile = folder.appendingPathComponent("request").path
            try Data(body).write(to: URL(fileURLWithPath: requestFile))
            arguments += ["--data-binary", "@\(requestFile)"]
        }
        arguments += ["--", url]
        let status = try await run(curlArguments: arguments, errorFile: folder.appendingPathComponent("stderr").path)
        guard status == 0 else {
            let message = (try? String(contentsOfFile: folder.appendingPathComponent("stderr").path, encoding: .utf8)) ?? ""
            throw MockIDPError("curl \(method) \(url) failed (exit \(status)): \(message.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        let headerText = (try? String(contentsOfFile: headerFile, encoding: .utf8)) ?? ""
        // The last header block is the final response's (an interim 1xx block may come first).
        let blocks = headerText.components(separatedBy: "\r\n\r\n").filter { !$0.isEmpty }
        let lines = (blocks.last ?? "").components(separatedBy: "\r\n")
        guard let statusLine = lines.first, let code = statusLine.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else {
            throw MockIDPError("curl \(method) \(url): no status line in the answer")
        }
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let data = (try? Data(contentsOf: URL(fileURLWithPath: bodyFile))) ?? Data()
        return HTTPReply(status: code, headers: fields, body: Array(data))
    }

    /// Runs `curl` without blocking a thread of the cooperative pool while it waits.
    private static func run(curlArguments: [String], errorFile: String) async throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["curl"] + curlArguments
        _ = FileManager.default.createFile(atPath: errorFile, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: errorFile)
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        return try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: MockIDPError("cannot run curl (needed for HTTPS helpers): \(error)"))
            }
        }
    }
}
