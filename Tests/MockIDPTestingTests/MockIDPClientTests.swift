import Foundation
import MockIDPJOSE
import MockIDPTesting
import Testing

/// `MockIDPClient` (`idp.execute`, `get`, `postForm`, `postJSON`) and `withMockIDPClient`: any request in either mode,
/// the same answers in both, and a client for a server started elsewhere.
@Suite struct MockIDPClientTests {
    static let contoso = "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11"
    static let daemon = "9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d"
    static let mobile = "3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c"

    @Test("the modes are named as a parameterized test lists them")
    func modes() {
        #expect(MockIdentityProviderMode.allCases == [.inProcess, .live])
        #expect(MockIdentityProviderMode.allCases.map(\.description) == ["inProcess", "live"])
    }

    @Test("the documentation's example: a discovery document by path", arguments: MockIdentityProviderMode.allCases)
    func documentationExample(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            #expect(idp.mode == mode && idp.client.baseURL == idp.baseURL)
            let document = try await idp.get("/common/v2.0/.well-known/openid-configuration")
            #expect(document.status == 200)
            #expect(document.json["token_endpoint"] == .string(idp.tokenEndpoint(tenant: "common")))
        }
    }

    @Test("get, postForm, postJSON and execute reach every kind of endpoint; answers of any status come back whole",
          arguments: MockIdentityProviderMode.allCases)
    func requests(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            let keys = try await idp.get(idp.keySetURL(tenant: Self.contoso))
            #expect(keys.status == 200 && keys.json["keys"]?.arrayValue?.count == 1)
            #expect(keys.header("content-type") == "application/json; charset=utf-8")
            #expect(keys.header("CONTENT-TYPE") == keys.header("Content-Type"))

            let token = try await idp.postForm("/\(Self.contoso)/oauth2/v2.0/token", [
                ("grant_type", "client_credentials"), ("client_id", Self.daemon), ("client_secret", "daemon secret?&="),
                ("scope", "api://contoso-api/.default")])
            #expect(token.status == 401 && token.json["error_codes"] == [7000215], "\(token.text)")
            let issued = try await idp.postForm(idp.tokenEndpoint(tenant: Self.contoso), [
                ("grant_type", "client_credentials"), ("client_id", Self.daemon), ("client_secret", "daemon-secret"),
                ("scope", "api://contoso-api/.default")])
            #expect(issued.status == 200 && issued.json["token_type"] == "Bearer")
            let claims = try await idp.verifiedClaims(of: try #require(issued.json["access_token"]?.stringValue), tenant: Self.contoso)
            #expect(claims["roles"] == ["Reader", "Writer"])

            let fault = try await idp.postJSON("/_mockidp/faults", ["endpoint": "keys", "status": 503])
            #expect(fault.status == 201, "\(fault.text)")
            let outage = try await idp.get(idp.keySetURL(tenant: Self.contoso))
            #expect(outage.status == 503 && outage.header("Retry-After") == "1" && outage.json["error"] == "temporarily_unavailable")
            let malformed = try await idp.postJSON("/_mockidp/faults", text: "{")
            #expect(malformed.status == 400 && malformed.json["error"] == "invalid_request", "\(malformed.text)")

            let missing = try await idp.execute("DELETE", "/no/such/thing")
            #expect(missing.status == 404)
            let wrongMethod = try await idp.execute("PUT", "/msi/token", body: Array("x".utf8))
            #expect(wrongMethod.status == 405)
        }
    }

    @Test("a redirect is returned, not followed; a page is text, and its json is .null", arguments: MockIdentityProviderMode.allCases)
    func redirectsAndPages(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            let authorize = idp.authorizeEndpoint(tenant: Self.contoso)
                + "?client_id=\(Self.mobile)&redirect_uri=http%3A%2F%2Flocalhost&response_type=code&scope=openid&state=s1"
            let silent = try await idp.get(authorize + "&prompt=none")
            #expect(silent.status == 302)
            let location = try #require(silent.location)
            #expect(location.hasPrefix("http://localhost") && location.contains("error=login_required") && location.contains("state=s1"))
            #expect(silent.header("location") == location)

            let page = try await idp.get(authorize)
            #expect(page.status == 200 && page.header("Content-Type")?.hasPrefix("text/html") == true)
            #expect(page.text.contains("<form") && page.json == .null && page.location == nil)
            #expect(!page.headers(named: "Set-Cookie").isEmpty)
            #expect(page.headers(named: "set-cookie") == page.headers.filter { $0.name.lowercased() == "set-cookie" }.map(\.value))
        }
    }

    @Test("Host in headers replaces the URL's: the documents name that host, as a cloud's host is reached on loopback",
          arguments: MockIdentityProviderMode.allCases)
    func hostHeader(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            let document = try await idp.get("/\(Self.contoso)/v2.0/.well-known/openid-configuration", headers: ["Host": "idp.test:9443"])
            #expect(document.json["token_endpoint"] == .string("http://idp.test:9443/\(Self.contoso)/oauth2/v2.0/token"))
            let cloud = try await idp.get("/\(Self.contoso)/v2.0/.well-known/openid-configuration", headers: ["host": "login.microsoftonline.com"])
            #expect(cloud.json["issuer"] == .string("https://login.microsoftonline.com/\(Self.contoso)/v2.0"))
        }
    }

    @Test("both modes give the same status, body and headers of the routes to the same requests")
    func sameAnswersInBothModes() async throws {
        let requests: [(String, String, [String: String])] = [
            ("GET", "/\(Self.contoso)/v2.0/.well-known/openid-configuration", ["Host": "idp.test"]),
            ("GET", "/common/.well-known/openid-configuration", ["Host": "login.microsoftonline.us"]),
            ("GET", "/common/userrealm/alice@contoso.onmicrosoft.com?api-version=1.0", ["Host": "idp.test"]),
            ("GET", "/no/such/thing", ["Host": "idp.test"]),
            ("GET", "/_mockidp/health", [:]),
        ]
        var answers: [MockIdentityProviderMode: [MockIDPResponse]] = [:]
        for mode in MockIdentityProviderMode.allCases {
            answers[mode] = try await withMockIdentityProvider(mode: mode) { idp in
                var replies: [MockIDPResponse] = []
                for (method, path, headers) in requests { replies.append(try await idp.execute(method, path, headers: headers)) }
                return replies
            }
        }
        let inProcess = try #require(answers[.inProcess]), live = try #require(answers[.live])
        for (index, request) in requests.enumerated() {
            #expect(inProcess[index].status == live[index].status, "\(request.1)")
            #expect(inProcess[index].body == live[index].body, "\(request.1): \(inProcess[index].text) | \(live[index].text)")
            for name in ["Content-Type", "Cache-Control", "Access-Control-Allow-Origin"] {
                #expect(inProcess[index].header(name) == live[index].header(name), "\(request.1): \(name)")
            }
        }
        #expect(inProcess[0].status == 200 && inProcess[3].status == 404)
    }

    @Test("a fault's delay is waited out in both modes, as the listener waits it out", arguments: MockIdentityProviderMode.allCases)
    func delays(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            try await idp.injectFault(MockFault(endpoint: "discovery", count: 1, delayMilliseconds: 400))
            let start = ContinuousClock.now
            let delayed = try await idp.get(idp.discoveryURL(tenant: Self.contoso))
            #expect(delayed.status == 200)
            #expect(ContinuousClock.now - start >= .milliseconds(400))
        }
    }

    @Test("the client sends no admin token of its own; the control-API wrappers do", arguments: MockIdentityProviderMode.allCases)
    func adminToken(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(adminToken: "let-me-in", mode: mode) { idp in
            let bare = try await idp.get("/_mockidp/requests")
            #expect(bare.status == 401)
            let authorized = try await idp.get("/_mockidp/requests", headers: ["Authorization": "Bearer let-me-in"])
            #expect(authorized.status == 200)
            let recorded = try await idp.requests()
            #expect(recorded.contains { $0.status == 401 && $0.path == "/_mockidp/requests" })
        }
    }

    @Test("withMockIDPClient reaches a server started elsewhere over TLS, trusting exactly the CA it is given")
    func clientForAServerStartedElsewhere() async throws {
        try await withMockIdentityProvider(tls: true) { idp in
            let ca = try #require(idp.caCertificatePath)
            let document = try await withMockIDPClient(baseURL: idp.baseURL + "/", caCertificatePath: ca) { client in
                #expect(client.baseURL == idp.baseURL)
                return try await client.get("/\(Self.contoso)/v2.0/.well-known/openid-configuration")
            }
            #expect(document.status == 200 && document.json["issuer"] == .string("\(idp.baseURL)/\(Self.contoso)/v2.0"))
            // The system's CAs do not know this one: the handshake fails, nothing is trusted by accident.
            await #expect(throws: (any Error).self) {
                try await withMockIDPClient(baseURL: idp.baseURL) { try await $0.get("/_mockidp/health") }
            }
        }
    }

    @Test("a response built by hand reads as one from the server")
    func responseByHand() {
        let response = MockIDPResponse(status: 302, headers: [("Location", "http://localhost?code=x"), ("Set-Cookie", "a=1"),
                                                              ("set-cookie", "b=2")], body: Array(#"{"ok": true}"#.utf8))
        #expect(response.location == "http://localhost?code=x" && response.header("LOCATION") == response.location)
        #expect(response.headers(named: "Set-Cookie") == ["a=1", "b=2"] && response.header("x-none") == nil)
        #expect(response.json["ok"] == true && response.text == #"{"ok": true}"#)
        #expect(MockIDPResponse(status: 204).json == .null && MockIDPResponse(status: 204).text.isEmpty)
    }
}
