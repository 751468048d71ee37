import Foundation
import MockIDPJOSE
import MockIDPTesting
import Testing

/// The control API wrappers, over HTTP against the in-process server.
@Suite struct ControlAPITests {
    static let contoso = "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11"
    static let daemon = "9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d"
    static let mobile = "3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c"

    func daemonToken(_ idp: MockIdentityProvider) async throws -> IssuedTokens {
        try await idp.clientCredentialsToken(tenant: Self.contoso, clientID: Self.daemon, secret: "daemon-secret",
                                             scope: "api://contoso-api/.default")
    }

    @Test("addUser and addApp take effect at once, and a typo is refused with 400")
    func directory() async throws {
        try await withMockIdentityProvider { idp in
            try await idp.addUser(MockUser(username: "erin@contoso.onmicrosoft.com", password: "erin-password", roles: ["Admin"],
                                           claims: ["department": "Legal"]), tenant: Self.contoso)
            let erin = try await idp.passwordToken(tenant: Self.contoso, clientID: Self.mobile, username: "erin@contoso.onmicrosoft.com",
                                                   password: "erin-password", scopes: ["openid", "User.Read"])
            #expect(erin.idTokenClaims?["department"] == "Legal")
            try await idp.addApp(MockApp(clientID: "0a0b0c0d-1e1f-4a2b-8c3d-4e5f6a7b8c9d", secret: "new-secret",
                                         apiPermissions: [(api: "api://contoso-api", values: ["Reader"])]), tenant: "contoso.com")
            let app = try await idp.clientCredentialsToken(tenant: Self.contoso, clientID: "0a0b0c0d-1e1f-4a2b-8c3d-4e5f6a7b8c9d",
                                                           secret: "new-secret", scope: "api://contoso-api/.default")
            #expect(app.claims["roles"] == ["Reader"])
            let error = await #expect(throws: ControlAPIError.self) {
                try await idp.addApp(MockApp(clientID: "0a0b0c0d-1e1f-4a2b-8c3d-4e5f6a7b8c9d", settings: ["secrte": "typo"]), tenant: Self.contoso)
            }
            #expect(error?.status == 400)
            #expect(error?.body.contains("secrte") == true)
        }
    }

    @Test("addGroup and a user in it reach the groups claim of an API that asks for it; reset removes both")
    func groups() async throws {
        try await withMockIdentityProvider { idp in
            let ops = "0a0b0c0d-1e1f-4a2b-8c3d-4e5f6a7b8c9e", list = "0a0b0c0d-1e1f-4a2b-8c3d-4e5f6a7b8c9f"
            try await idp.addGroup(MockGroup(id: ops, displayName: "Ops"), tenant: Self.contoso)
            try await idp.addGroup(MockGroup(id: list, displayName: "List", securityEnabled: false, mail: "list@contoso.com"), tenant: Self.contoso)
            try await idp.addUser(MockUser(username: "erin@contoso.onmicrosoft.com", password: "erin-password", groups: [ops, list]),
                                  tenant: Self.contoso)
            // The default API's manifest asks for SecurityGroup: the distribution list stays out.
            let erin = try await idp.passwordToken(tenant: Self.contoso, clientID: Self.mobile, username: "erin@contoso.onmicrosoft.com",
                                                   password: "erin-password", scopes: ["api://contoso-api/access_as_user"])
            #expect(erin.claims["groups"] == [.string(ops)])
            let error = await #expect(throws: ControlAPIError.self) {
                try await idp.addGroup(MockGroup(id: "not-a-guid"), tenant: Self.contoso)
            }
            #expect(error?.status == 400)
            try await idp.reset()
            await #expect(throws: (any Error).self) {
                _ = try await idp.passwordToken(tenant: Self.contoso, clientID: Self.mobile, username: "erin@contoso.onmicrosoft.com",
                                                password: "erin-password", scopes: ["api://contoso-api/access_as_user"])
            }
        }
    }

    @Test("extraClaims lands in the next token only")
    func claims() async throws {
        try await withMockIdentityProvider { idp in
            try await idp.extraClaims(["ticket": "T-1"], clientID: Self.daemon, count: 1)
            #expect(try await daemonToken(idp).claims["ticket"] == "T-1")
            #expect(try await daemonToken(idp).claims["ticket"] == nil)
        }
    }

    @Test("tamper gives the next token its defect, and a defect the token kind cannot carry is refused")
    func tamper() async throws {
        try await withMockIdentityProvider { idp in
            try await idp.tamper(.wrongAudience, token: .access, clientID: Self.daemon)
            let bad = try await daemonToken(idp).claims
            #expect(bad["aud"] != nil && bad["aud"] != "7c2d9e4f-1b3a-4c5d-8e6f-a0b1c2d3e4f5")
            #expect(try await daemonToken(idp).claims["aud"] == "7c2d9e4f-1b3a-4c5d-8e6f-a0b1c2d3e4f5")
            let error = await #expect(throws: ControlAPIError.self) { try await idp.tamper(.badCodeHash, token: .access) }
            #expect(error?.status == 400)
            // Every case is a defect the server knows (an unknown name would be refused with 400).
            for defect in MockDefect.allCases { try await idp.tamper(defect, token: .id, clientID: Self.mobile) }
            #expect(try await idp.pendingFaults().count == MockDefect.allCases.count)
        }
    }

    @Test("injectFault answers the next token request with Entra's claims challenge")
    func fault() async throws {
        try await withMockIdentityProvider { idp in
            let challenge = #"{"access_token":{"acrs":{"essential":true,"value":"c1"}}}"#
            try await idp.injectFault(MockFault(endpoint: "token", status: 400, error: "invalid_grant", aadsts: 50076,
                                            suberror: "basic_action", claims: challenge))
            let error = await #expect(throws: TokenRequestError.self) { try await daemonToken(idp) }
            #expect(error?.errorCodes == [50076])
            #expect(error?.suberror == "basic_action")
            #expect(error?.claims == challenge)
            _ = try await daemonToken(idp)
            // Filters: a fault for another client leaves the daemon alone and keeps waiting.
            try await idp.injectFault(MockFault(endpoint: "token", status: 503, retryAfter: 2, clientID: Self.mobile))
            _ = try await daemonToken(idp)
            #expect(try await idp.pendingFaults().count == 1)
        }
    }

    @Test("rotateKeys signs with a new kid, old tokens verify until retireKeys")
    func keys() async throws {
        try await withMockIdentityProvider { idp in
            let before = try await daemonToken(idp).accessToken
            try await idp.rotateKeys()
            let after = try await daemonToken(idp).accessToken
            #expect(try CompactJWS(before).header["kid"] != CompactJWS(after).header["kid"])
            _ = try await idp.verifiedClaims(of: before, tenant: Self.contoso)
            try await idp.retireKeys()
            await #expect(throws: (any Error).self) { try await idp.verifiedClaims(of: before, tenant: Self.contoso) }
            _ = try await idp.verifiedClaims(of: after, tenant: Self.contoso)
        }
    }

    @Test("advanceClock moves token timestamps; reset forgets added users; requests explains rejections")
    func clockResetRequests() async throws {
        try await withMockIdentityProvider { idp in
            let now = try await daemonToken(idp).claims["iat"]?.intValue ?? 0
            try await idp.advanceClock(seconds: 7200)
            let later = try await daemonToken(idp).claims["iat"]?.intValue ?? 0
            #expect(later - now >= 7200)
            try await idp.addUser(MockUser(username: "frank@contoso.onmicrosoft.com", password: "p"), tenant: Self.contoso)
            try await idp.reset()
            await #expect(throws: TokenRequestError.self) {
                try await idp.passwordToken(tenant: Self.contoso, clientID: Self.mobile, username: "frank@contoso.onmicrosoft.com",
                                            password: "p", scopes: ["User.Read"])
            }
            let log = try await idp.requests()
            let last = try #require(log.last { $0.path.hasSuffix("/oauth2/v2.0/token") })
            #expect(last.status == 400)
            #expect(last.reason?.isEmpty == false)
        }
    }

    @Test("with an admin token and TLS the wrappers send the token and verify the server")
    func adminToken() async throws {
        try await withMockIdentityProvider(tls: true, adminToken: "let-me-in") { idp in
            let rotated = try await idp.rotateKeys()
            let token = try await daemonToken(idp)
            #expect(try CompactJWS(token.accessToken).header["kid"] == rotated["kid"])
            #expect(try await idp.requests().contains { $0.path.hasSuffix("/oauth2/v2.0/token") && $0.status == 200 && $0.reason == nil })
        }
    }
}

/// `probe`: a relying party's check called with one clean and one defective token per defect.
@Suite struct ProbeTests {
    /// A careful check written with this project's own JOSE types: signature by a published key (RS256 only),
    /// audience, issuer, lifetime.
    static func careful(_ idp: MockIdentityProvider, checkAudience: Bool = true) -> @Sendable (String) async throws -> Int {
        let keys = idp.server.provider.snapshot().signingKeys.map { ($0.keyID, $0.privateKey.publicKey) }
        let issuer = "\(idp.baseURL)/\(ControlAPITests.contoso)/v2.0"
        return { token in
            guard let jws = try? CompactJWS(token), jws.algorithm == .rs256, let kid = jws.header["kid"]?.stringValue,
                  let key = keys.first(where: { $0.0 == kid })?.1, jws.verify(with: key) else { return 401 }
            let now = Int(Date().timeIntervalSince1970)
            let claims = jws.payload
            guard claims["iss"]?.stringValue == issuer, claims["tid"]?.stringValue == ControlAPITests.contoso,
                  !checkAudience || claims["aud"]?.stringValue == "7c2d9e4f-1b3a-4c5d-8e6f-a0b1c2d3e4f5",
                  claims["azp"]?.stringValue == ControlAPITests.daemon, claims["sub"] != nil,
                  let exp = claims["exp"]?.intValue, exp > now, let nbf = claims["nbf"]?.intValue, nbf <= now + 60,
                  let iat = claims["iat"]?.intValue, iat <= now + 60 else { return 401 }
            return 200
        }
    }

    @Test("a careful check passes the probe; one without the audience check fails on wrong-audience only")
    func probe() async throws {
        try await withMockIdentityProvider { idp in
            let good = try await idp.probe(tenant: ControlAPITests.contoso, clientID: ControlAPITests.daemon,
                                           scopes: ["api://contoso-api/.default"], Self.careful(idp))
            #expect(good.passed, "\(good)")
            #expect(good.verdicts.count == 15 && good.verdicts[0].defect == nil && good.verdicts[0].status == 200)
            #expect(good.skipped == [.wrongNonce, .noNonce, .badCodeHash, .badAccessTokenHash])
            let lax = try await idp.probe(tenant: ControlAPITests.contoso, clientID: ControlAPITests.daemon,
                                          scopes: ["api://contoso-api/.default"], Self.careful(idp, checkAudience: false))
            #expect(!lax.passed)
            #expect(lax.failures.map(\.defect) == [.wrongAudience])
        }
    }
}
