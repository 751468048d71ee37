import Logging
@testable import MockIDP
import MockIDPConfiguration
import MockIDPCore
import MockIDPHTTP
import MockIDPJOSE
import Testing

/// The routes, called directly with request values: no socket, no server, the embedded default configuration.
@Suite struct RoutesTests {
    static let contoso = "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11"
    static let daemon = "9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d"
    static let base = "https://localhost:8443"
    static let signingKey: SigningKey? = try? SigningKey.generate(validityDays: 1)

    let routes: Routes
    let provider: IdentityProvider

    init() throws {
        let configuration = try ConfigurationLoader.load(paths: [])
        provider = IdentityProvider(configuration: configuration, signingKeys: [try #require(Self.signingKey)])
        routes = Routes(provider: provider, options: ServerOptions(), logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
    }

    private func get(_ url: String) -> HTTPResponse {
        var path = String(url.dropFirst(Self.base.count))
        if let q = path.firstIndex(of: "?") { path = String(path[..<q]) }
        return routes.respond(to: HTTPRequest(method: "GET", path: path, headers: ["Host": "localhost:8443"], isSecure: true))
    }

    private func post(_ path: String, form: String) -> HTTPResponse {
        routes.respond(to: HTTPRequest(
            method: "POST", path: path,
            headers: ["Host": "localhost:8443", "Content-Type": "application/x-www-form-urlencoded"],
            body: Array(form.utf8), isSecure: true))
    }

    private func json(_ response: HTTPResponse) -> JSONObject {
        (try? JSONValue.parse(response.body))?.objectValue ?? [:]
    }

    @Test("every endpoint the v1 and v2 discovery documents advertise is routed (userinfo, check session and Kerberos included)",
          arguments: ["/v2.0/.well-known/openid-configuration", "/.well-known/openid-configuration"])
    func advertisedEndpointsAnswer(document: String) throws {
        let response = get(Self.base + "/" + Self.contoso + document)
        #expect(response.status == .ok)
        let doc = json(response)
        let names = ["token_endpoint", "jwks_uri", "authorization_endpoint", "device_authorization_endpoint",
                     "end_session_endpoint", "userinfo_endpoint", "kerberos_endpoint", "check_session_iframe"]
        for name in names {
            guard name != "check_session_iframe" || document == "/.well-known/openid-configuration" else { continue }
            let url = try #require(doc[name]?.stringValue, "\(name) is advertised")
            #expect(url.hasPrefix(Self.base), "\(name) = \(url)")
            // A route answers with anything but "no endpoint here" (a GET to the token endpoint is Entra's 400).
            #expect(get(url).status != .notFound, "\(name) = \(url) is not routed")
        }
    }

    @Test("the request log's message: method, path, status and milliseconds to three places")
    func logLine() {
        #expect(Routes.logLine("GET", "/common/v2.0/.well-known/openid-configuration", 200, milliseconds: 0.1204)
                == "GET /common/v2.0/.well-known/openid-configuration 200 0.120ms")
        #expect(Routes.logLine("POST", "/t/oauth2/v2.0/token", 400, milliseconds: 12.0049) == "POST /t/oauth2/v2.0/token 400 12.005ms")
        #expect(Routes.logLine("GET", "/", 404, milliseconds: 0) == "GET / 404 0.000ms")
        #expect(Routes.logLine("GET", "/ü", 200, milliseconds: 1234.5) == "GET /ü 200 1234.500ms")
    }

    @Test("client credentials through the token route: a signed token whose azpacr says a secret was used")
    func clientCredentials() throws {
        let form = "grant_type=client_credentials&client_id=\(Self.daemon)&client_secret=daemon-secret&scope=api%3A%2F%2Fcontoso-api%2F.default"
        let response = post("/\(Self.contoso)/oauth2/v2.0/token", form: form)
        #expect(response.status == .ok)
        #expect(response.headers["Cache-Control"] == "no-store, no-cache")
        let token = try #require(json(response)["access_token"]?.stringValue)
        let jws = try CompactJWS(token)
        #expect(jws.verify(with: provider.snapshot().signingKeys[0].privateKey.publicKey))
        #expect(jws.payload["azpacr"] == "1")
        #expect(jws.payload["roles"] == ["Reader", "Writer"])
        #expect(Array(jws.payload.keys.prefix(5)) == ["aud", "iss", "iat", "nbf", "exp"])
    }

    @Test("an unknown grant type gets Entra's AADSTS70003 as JSON, with no token")
    func unsupportedGrantType() {
        let response = post("/\(Self.contoso)/oauth2/v2.0/token", form: "grant_type=magic&client_id=\(Self.daemon)")
        #expect(response.status == .badRequest)
        let body = json(response)
        #expect(body["error"] == "unsupported_grant_type")
        #expect(body["error_codes"] == [70003])
        #expect(body["access_token"] == nil)
    }

    @Test("ADAL's short device_code grant name is a grant only on the v1 endpoint")
    func shortDeviceCodeNameIsV1Only() {
        #expect(GrantType("device_code", version: .v1) == .deviceCode)
        #expect(GrantType("device_code", version: .v2) == nil)
        #expect(GrantType("urn:ietf:params:oauth:grant-type:device_code", version: .v2) == .deviceCode)
    }
}
