import MockIDP
import MockIDPCore
import MockIDPJOSE
import MockIDPTesting
import Testing

/// `mode: .inProcess`: the helpers call the server's routes directly; nothing listens.
@Suite struct InProcessModeTests {
    static let contoso = "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11"
    static let daemon = "9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d"

    @Test("in-process: tokens verified against the published keys, the control API and the request log, with no listener")
    func tokensAndControlWithoutASocket() async throws {
        try await withMockIdentityProvider(mode: .inProcess) { idp in
            #expect(idp.baseURL == "http://localhost")
            #expect(idp.server.baseURLs.isEmpty)
            let tokens = try await idp.clientCredentialsToken(tenant: Self.contoso, clientID: Self.daemon, secret: "daemon-secret",
                                                              scope: "api://contoso-api/.default")
            #expect(tokens.claims["roles"] == ["Reader", "Writer"])
            #expect(tokens.claims["iss"] == .string("http://localhost/\(Self.contoso)/v2.0"))
            await #expect(throws: TokenRequestError.self) {
                _ = try await idp.clientCredentialsToken(tenant: Self.contoso, clientID: Self.daemon, secret: "wrong",
                                                         scope: "api://contoso-api/.default")
            }
            let recorded = try await idp.requests()
            #expect(recorded.contains { $0.path.hasSuffix("/oauth2/v2.0/token") && $0.status == 401 })
        }
    }

    @Test("in-process with tls: the documents name https, and no certificate is needed to reach the routes")
    func inProcessTLS() async throws {
        try await withMockIdentityProvider(tls: true, mode: .inProcess) { idp in
            #expect(idp.baseURL == "https://localhost")
            let tokens = try await idp.clientCredentialsToken(tenant: Self.contoso, clientID: Self.daemon, secret: "daemon-secret",
                                                              scope: "api://contoso-api/.default")
            #expect(tokens.claims["iss"] == .string("https://localhost/\(Self.contoso)/v2.0"))
        }
    }

    @Test("live over TLS: the helpers trust exactly the server's CA through a real HTTP client")
    func liveTLS() async throws {
        try await withMockIdentityProvider(tls: true) { idp in
            #expect(idp.baseURL.hasPrefix("https://127.0.0.1:"))
            let tokens = try await idp.clientCredentialsToken(tenant: Self.contoso, clientID: Self.daemon, secret: "daemon-secret",
                                                              scope: "api://contoso-api/.default")
            #expect(tokens.claims["tid"] == .string(Self.contoso))
        }
    }

    @Test("live: calls spaced around the server's idle timeout all get through, so a paused test is not failed by it")
    func idleConnections() async throws {
        // The server closes connections idle for a second here (30 in `serve`'s default). Before the client gave up
        // idle connections first, a call sent just as the server closed one failed with remoteConnectionClosed
        // (2 of 16 such calls in a trial); a test paused 30 s on a loaded CI machine failed that way.
        var limits = ServerLimits()
        limits.connectionTimeout = 1
        try await withMockIdentityProvider(limits: limits) { idp in
            for step in 0..<12 {
                _ = try await idp.keySet(tenant: Self.contoso)
                try await Task.sleep(for: .milliseconds(950 + 10 * step))
            }
            _ = try await idp.keySet(tenant: Self.contoso)
        }
    }
}
