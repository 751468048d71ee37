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

/// A browser-like client for the authorize pages: redirects are returned, not followed, and cookies are kept
/// by hand (per test, so parallel tests on other ports never share them).
final class PageClient: @unchecked Sendable {
    private final class NoRedirects: NSObject, URLSessionTaskDelegate {
        func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
            completionHandler(nil)
        }
    }

    private let session: URLSession = {
        let c = URLSessionConfiguration.ephemeral
        c.timeoutIntervalForRequest = 10
        c.httpShouldSetCookies = false
        c.httpCookieAcceptPolicy = .never
        return URLSession(configuration: c, delegate: NoRedirects(), delegateQueue: nil)
    }()
    var cookies: [String: String] = [:]
    var host: String?

    func send(_ method: String, _ url: String, form: [(String, String)]? = nil) async throws -> Reply {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        if let form {
            request.httpBody = Data(form.map { "\(HTTP.escape($0.0))=\(HTTP.escape($0.1))" }.joined(separator: "&").utf8)
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        }
        if !cookies.isEmpty { request.setValue(cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; "), forHTTPHeaderField: "Cookie") }
        if let host { request.setValue(host, forHTTPHeaderField: "Host") }
        let (data, response) = try await session.data(for: request)
        let http = response as! HTTPURLResponse
        var h: [String: String] = [:]
        for (k, v) in http.allHeaderFields { h["\(k)"] = "\(v)" }
        let reply = Reply(status: http.statusCode, headers: h, body: data)
        for name in ["mockidp_form", "mockidp_session"] {
            if let value = reply.header("Set-Cookie")?.firstMatch(of: try Regex("\(name)=([^;,]*)"))?.output[1].substring {
                cookies[name] = String(value)
            }
        }
        return reply
    }

    /// Posts the page's form whose `mockidp_action` is `action`, with its hidden fields and `fields`.
    func submit(_ page: Reply, baseURL: String, action: String, _ fields: [(String, String)] = []) async throws -> Reply {
        let html = page.text
        let forms = html.split(separator: "<form").dropFirst()
        guard let form = forms.first(where: { $0.contains("name=\"mockidp_action\" value=\"\(action)\"") }),
              let target = form.firstMatch(of: /action="([^"]*)"/)?.output.1 else {
            throw MockIDPTestError("no form with action \(action) on the page: \(html.prefix(300))")
        }
        var pairs: [(String, String)] = []
        for match in form.matches(of: /<input type="hidden" name="([^"]*)" value="([^"]*)">/) {
            pairs.append((Self.unescape(String(match.output.1)), Self.unescape(String(match.output.2))))
        }
        return try await send("POST", baseURL + Self.unescape(String(target)), form: pairs + fields)
    }

    static func unescape(_ s: String) -> String {
        s.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&#x2F;", with: "/").replacingOccurrences(of: "&#x3D;", with: "=")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}

struct MockIDPTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
