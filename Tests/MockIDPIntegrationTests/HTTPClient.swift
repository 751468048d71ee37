import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockIDPJOSE

/// A small HTTP client over URLSession for the integration tests (plain HTTP servers on loopback).
struct Reply {
    var status: Int
    var headers: [String: String]
    var body: Data
    var json: JSONValue { (try? JSONValue.parse(Array(body))) ?? .null }
    var text: String { String(decoding: body, as: UTF8.self) }
    func header(_ name: String) -> String? { headers.first { $0.key.lowercased() == name.lowercased() }?.value }
}

enum HTTP {
    static let session: URLSession = {
        let c = URLSessionConfiguration.ephemeral
        c.timeoutIntervalForRequest = 10
        return URLSession(configuration: c)
    }()

    static func send(_ method: String, _ url: String, body: Data? = nil, headers: [String: String] = [:]) async throws -> Reply {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        request.httpBody = body
        for (k, v) in headers { request.setValue(v, forHTTPHeaderField: k) }
        let (data, response) = try await session.data(for: request)
        let http = response as! HTTPURLResponse
        var h: [String: String] = [:]
        for (k, v) in http.allHeaderFields { h["\(k)"] = "\(v)" }
        return Reply(status: http.statusCode, headers: h, body: data)
    }

    static func get(_ url: String, headers: [String: String] = [:]) async throws -> Reply {
        try await send("GET", url, headers: headers)
    }

    static func form(_ url: String, _ pairs: [(String, String)], headers: [String: String] = [:]) async throws -> Reply {
        let body = pairs.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
        var h = headers
        h["Content-Type"] = "application/x-www-form-urlencoded"
        return try await send("POST", url, body: Data(body.utf8), headers: h)
    }

    static func escape(_ s: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return s.addingPercentEncoding(withAllowedCharacters: allowed) ?? s
    }
}
