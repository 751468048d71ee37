import Foundation
import MockIDPTesting
import MockIDPText

/// A browser on the sign-in pages, over the provider's own client (`MockIDPClient`, in the provider's mode): it is
/// not an HTTP client of its own, only the cookies and forms a browser adds. Redirects come back unfollowed, as the
/// client returns them, and the form and session cookies are kept per browser, so two browsers (a victim and an
/// attacker) never share them.
final class Browser {
    private let client: MockIDPClient
    /// The cookies the server set (`mockidp_form`, `mockidp_session`), sent back with every request.
    var cookies: [String: String] = [:]

    init(_ idp: MockIdentityProvider) { client = idp.client }

    /// Sends a request with the cookies kept so far, `form` as its body when given, and keeps the cookies it sets.
    func send(_ method: String, _ url: String, form: [(String, String)]? = nil) async throws -> MockIDPResponse {
        var headers: [String: String] = [:]
        var body: [UInt8]?
        if let form {
            body = Array(formEncoded(form).utf8)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        }
        if !cookies.isEmpty {
            headers["Cookie"] = cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        }
        let reply = try await client.execute(method, url, headers: headers, body: body)
        for field in reply.headers(named: "Set-Cookie") {
            let pair = field.prefix { $0 != ";" }
            guard let equals = pair.firstIndex(of: "=") else { continue }
            let name = pair[..<equals].trimmingCharacters(in: .whitespaces)
            if ["mockidp_form", "mockidp_session"].contains(name) { cookies[name] = String(pair[pair.index(after: equals)...]) }
        }
        return reply
    }

    /// Posts the page's form whose `mockidp_action` is `action`, with its hidden fields and `fields`.
    func submit(_ page: MockIDPResponse, action: String, _ fields: [(String, String)] = []) async throws -> MockIDPResponse {
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
        return try await send("POST", Self.unescape(String(target)), form: pairs + fields)
    }

    static func unescape(_ s: String) -> String {
        s.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&#x2F;", with: "/").replacingOccurrences(of: "&#x3D;", with: "=")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}

/// `name=value&…` for a URL's query or a form body: each part percent-encoded but for RFC 3986's unreserved
/// characters.
func formEncoded(_ pairs: [(String, String)]) -> String {
    pairs.map { "\(percentEncoded($0.0))=\(percentEncoded($0.1))" }.joined(separator: "&")
}

/// `s` percent-encoded but for RFC 3986's unreserved characters (a query value, a path segment).
func percentEncoded(_ s: String) -> String {
    PercentEncoding.encode(s)
}

struct MockIDPTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
