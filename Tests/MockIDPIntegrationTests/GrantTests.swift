import Foundation
import MockIDPJOSE
import MockIDPTesting
import Testing

/// Certificate credentials, on-behalf-of and family refresh tokens in both modes, serving config/default.yaml,
/// config/examples/on-behalf-of.yaml and an app whose certificate each run creates; and `mockidp token`, whose tokens
/// a server on the same state directory publishes the key of.
@Suite struct GrantTests {
    static let contoso = "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11"
    static let certificateDaemon = "6b7c8d9e-0f1a-4b2c-8d3e-4f5a6b7c8d9e"
    static let daemon = "9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d"
    static let mobile = "3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c"
    static let contosoAPI = "7c2d9e4f-1b3a-4c5d-8e6f-a0b1c2d3e4f5"
    static let middle = "1d2e3f4a-5b6c-4d7e-8f9a-0b1c2d3e4f5a"
    static let downstream = "2e3f4a5b-6c7d-4e8f-9a0b-1c2d3e4f5a6b"
    static let mail = "3f4a5b6c-7d8e-4f9a-8b1c-2d3e4f5a6b7c"
    static let calendar = "4a5b6c7d-8e9f-4a0b-9c2d-3e4f5a6b7c8d"
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The daemon's registered certificate and key, and a second pair that is registered nowhere.
    struct Credentials {
        let key: PrivateKey
        let certificate: Certificate
        let strangerKey: PrivateKey
        let stranger: Certificate
    }

    static func makeCredentials() throws -> Credentials {
        let key = try PrivateKey.generateRSA(bits: 2048)
        let stranger = try PrivateKey.generateRSA(bits: 2048)
        return Credentials(key: key, certificate: try Certificate.selfSigned(key: key, commonName: "daemon", validityDays: 30),
                           strangerKey: stranger,
                           stranger: try Certificate.selfSigned(key: stranger, commonName: "stranger", validityDays: 30))
    }

    /// The three configurations, the third written into `dir`: the certificate sits beside its configuration file
    /// and is named by a relative path, as users write it.
    static func configuration(_ credentials: Credentials, in dir: String) throws -> ConfigurationSource {
        try FileManager.default.createDirectory(atPath: dir + "/certs", withIntermediateDirectories: true)
        try credentials.certificate.pem.write(toFile: dir + "/certs/daemon.pem", atomically: true, encoding: .utf8)
        try """
            tenants:
              - id: \(contoso)
                apps:
                  - clientId: \(certificateDaemon)
                    name: Contoso Certificate Daemon
                    certificates: [certs/daemon.pem]
                    apiPermissions:
                      api://contoso-api: [Reader]
            """.write(toFile: dir + "/certificate.yaml", atomically: true, encoding: .utf8)
        return .files([root + "/config/default.yaml", root + "/config/examples/on-behalf-of.yaml", dir + "/certificate.yaml"])
    }

    static func paddedBase64URL(_ bytes: [UInt8]) -> String {
        var text = Base64URL.encode(bytes)
        while text.count % 4 != 0 { text += "=" }
        return text
    }

    /// A client assertion as MSAL builds it: PS256 with a padded `x5t#S256`, or RS256 with a padded `x5t`;
    /// float `exp` and `iat`; a `jti`.
    static func assertion(_ algorithm: SignatureAlgorithm = .ps256, key: PrivateKey, certificate: Certificate,
                          audience: JSONValue, clientID: String = certificateDaemon, subject: String? = nil,
                          lifetime: Double = 600, header extra: JSONObject = [:]) throws -> String {
        var header: JSONObject = ["typ": "JWT"]
        if algorithm == .ps256 {
            header["x5t#S256"] = .string(paddedBase64URL(certificate.sha256Thumbprint))
        } else {
            header["x5t"] = .string(paddedBase64URL(certificate.sha1Thumbprint))
        }
        for (name, value) in extra { header[name] = value }
        let now = Date().timeIntervalSince1970
        let payload: JSONObject = ["aud": audience, "iss": .string(clientID), "sub": .string(subject ?? clientID),
                                   "exp": .double(now + lifetime), "iat": .double(now), "jti": .string(UUID().uuidString)]
        return try JSONWebSignature.sign(header: header, payload: payload, key: key, algorithm: algorithm)
    }

    static func claims(_ token: String?) -> JSONObject {
        guard let token, let jws = try? CompactJWS(token) else { return [:] }
        return jws.payload
    }

    static func clientCredentials(_ idp: MockIdentityProvider, assertion: String, path: String? = nil,
                                  scope: (String, String) = ("scope", "api://contoso-api/.default"),
                                  type: String? = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer") async throws -> MockIDPResponse {
        var form = [("grant_type", "client_credentials"), ("client_id", certificateDaemon), scope, ("client_assertion", assertion)]
        if let type { form.append(("client_assertion_type", type)) }
        return try await idp.postForm(path ?? "/\(contoso)/oauth2/v2.0/token", form)
    }

    @Test("client credentials with a certificate: RS256 with x5t and PS256 with x5t#S256, on the v2 and v1 endpoints",
          arguments: MockIdentityProviderMode.allCases)
    func certificateCredentials(mode: MockIdentityProviderMode) async throws {
        let c = try Self.makeCredentials()
        let dir = CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try await withMockIdentityProvider(configuration: try Self.configuration(c, in: dir), stateDirectory: dir, mode: mode) { idp in
            let v2 = "\(idp.baseURL)/\(Self.contoso)/oauth2/v2.0/token"
            for algorithm in [SignatureAlgorithm.ps256, .rs256] {
                let a = try Self.assertion(algorithm, key: c.key, certificate: c.certificate, audience: .string(v2))
                let r = try await Self.clientCredentials(idp, assertion: a)
                #expect(r.status == 200, "\(algorithm): \(r.text)")
                let token = Self.claims(r.json["access_token"]?.stringValue)
                #expect(token["azp"] == .string(Self.certificateDaemon))
                #expect(token["azpacr"] == "2")
                #expect(token["roles"] == ["Reader"])
                #expect(token["aud"] == .string(Self.contosoAPI))
                // MSAL reuses one assertion for minutes: Entra accepts it again.
                #expect(try await Self.clientCredentials(idp, assertion: a).status == 200)
            }
            // The audience may name the tenant by domain, and the cloud's own login host.
            for audience in ["\(idp.baseURL)/contoso.com/oauth2/v2.0/token",
                             "https://login.microsoftonline.com/\(Self.contoso)/oauth2/v2.0/token"] {
                let a = try Self.assertion(key: c.key, certificate: c.certificate, audience: .string(audience))
                #expect(try await Self.clientCredentials(idp, assertion: a).status == 200, "\(audience)")
            }
            // v1: `resource`, and the v1 token URL as audience; the v1 token says appidacr 2.
            let v1 = "\(idp.baseURL)/\(Self.contoso)/oauth2/token"
            let a = try Self.assertion(.rs256, key: c.key, certificate: c.certificate, audience: .string(v1))
            let r = try await Self.clientCredentials(idp, assertion: a, path: "/\(Self.contoso)/oauth2/token",
                                                     scope: ("resource", "https://graph.microsoft.com"))
            #expect(r.status == 200, "\(r.text)")
            #expect(Self.claims(r.json["access_token"]?.stringValue)["appidacr"] == "2")
        }
    }

    @Test("client assertions Entra refuses get its AADSTS codes and never a token",
          arguments: MockIdentityProviderMode.allCases)
    func certificateErrors(mode: MockIdentityProviderMode) async throws {
        let c = try Self.makeCredentials()
        let dir = CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try await withMockIdentityProvider(configuration: try Self.configuration(c, in: dir), stateDirectory: dir, mode: mode) { idp in
            let aud = JSONValue.string("\(idp.baseURL)/\(Self.contoso)/oauth2/v2.0/token")
            let good = try Self.assertion(key: c.key, certificate: c.certificate, audience: aud)
            let parts = good.split(separator: ".")
            let hs256 = Base64URL.encode(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8)) + "." + parts[1] + "." + parts[2]
            let noThumbprint = try JSONWebSignature.sign(header: ["typ": "JWT"], payload: CompactJWS(good).payload,
                                                         key: c.key, algorithm: .ps256)
            let cases: [(String, String, Int, Int)] = [
                ("signed by another key", try Self.assertion(key: c.strangerKey, certificate: c.certificate, audience: aud), 700027, 401),
                ("an unregistered certificate", try Self.assertion(key: c.strangerKey, certificate: c.stranger, audience: aud), 700027, 401),
                ("no thumbprint", noThumbprint, 700027, 401),
                ("iss and sub of another app", try Self.assertion(key: c.key, certificate: c.certificate, audience: aud, clientID: Self.daemon), 700021, 401),
                ("sub differs from iss", try Self.assertion(key: c.key, certificate: c.certificate, audience: aud, subject: Self.daemon), 50048, 401),
                ("another audience", try Self.assertion(key: c.key, certificate: c.certificate, audience: "https://example.com/token"), 700023, 401),
                ("a list of audiences", try Self.assertion(key: c.key, certificate: c.certificate, audience: [aud, aud]), 50027, 401),
                ("expired ten minutes ago", try Self.assertion(key: c.key, certificate: c.certificate, audience: aud, lifetime: -600), 700024, 401),
                ("not a JWT", "not-a-jwt", 50027, 401),
                ("an exp no clock reaches", try Self.assertion(key: c.key, certificate: c.certificate, audience: aud, lifetime: 1e300), 50027, 401),
                ("HS256", hs256, 5002730, 400),
            ]
            for (name, assertion, code, status) in cases {
                let r = try await Self.clientCredentials(idp, assertion: assertion)
                #expect(r.status == status, "\(name): \(r.text)")
                #expect(r.json["error_codes"] == [.int(code)], "\(name): \(r.text)")
                #expect(r.json["access_token"] == nil, "\(name)")
            }
            let wrongType = try await Self.clientCredentials(idp, assertion: good, type: "urn:example:other")
            #expect(wrongType.status == 400 && wrongType.json["error"] == "invalid_request", "\(wrongType.text)")
            let noType = try await Self.clientCredentials(idp, assertion: good, type: nil)
            #expect(noType.json["error_codes"] == [900144], "\(noType.text)")
            // A public client must not send an assertion (AADSTS700025).
            let publicClient = try await idp.postForm("/\(Self.contoso)/oauth2/v2.0/token", [
                ("grant_type", "password"), ("client_id", Self.mobile), ("username", "alice@contoso.onmicrosoft.com"),
                ("password", "alice-password"), ("scope", "User.Read"), ("client_assertion", good),
                ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")])
            #expect(publicClient.json["error_codes"] == [700025])
        }
    }

    /// Alice's access token for `scope`, from the password grant of the mobile app.
    static func userToken(_ idp: MockIdentityProvider, scope: String, client: String = mobile) async throws -> String {
        let r = try await idp.postForm("/\(contoso)/oauth2/v2.0/token", [
            ("grant_type", "password"), ("client_id", client), ("username", "alice@contoso.onmicrosoft.com"),
            ("password", "alice-password"), ("scope", scope)])
        guard let token = r.json["access_token"]?.stringValue else { throw CocoaError(.coderInvalidValue) }
        return token
    }

    static func onBehalfOf(_ idp: MockIdentityProvider, assertion: String, scope: String, client: String = middle,
                           secret: String? = "middle-secret", use: String? = "on_behalf_of") async throws -> MockIDPResponse {
        var form = [("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("client_id", client),
                    ("assertion", assertion), ("scope", scope), ("client_info", "1")]
        if let secret { form.append(("client_secret", secret)) }
        if let use { form.append(("requested_token_use", use)) }
        return try await idp.postForm("/\(contoso)/oauth2/v2.0/token", form)
    }

    @Test("on-behalf-of: the middle tier exchanges the user's token for downstream and Graph tokens for the same user",
          arguments: MockIdentityProviderMode.allCases)
    func onBehalfOf(mode: MockIdentityProviderMode) async throws {
        let dir = CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try await withMockIdentityProvider(configuration: try Self.configuration(try Self.makeCredentials(), in: dir), stateDirectory: dir, mode: mode) { idp in
            let incoming = try await Self.userToken(idp, scope: "api://contoso-middle/access_as_user")
            let user = Self.claims(incoming)
            #expect(user["aud"] == .string(Self.middle))
            let r = try await Self.onBehalfOf(idp, assertion: incoming, scope: "api://contoso-downstream/read offline_access openid profile")
            #expect(r.status == 200, "\(r.text)")
            let token = Self.claims(r.json["access_token"]?.stringValue)
            #expect(token["aud"] == .string(Self.downstream))
            #expect(token["oid"] == user["oid"] && token["tid"] == .string(Self.contoso))
            #expect(token["scp"] == "read")
            #expect(token["azp"] == .string(Self.middle) && token["azpacr"] == "1")
            #expect(r.json["refresh_token"] != nil && r.json["id_token"] != nil && r.json["client_info"] != nil)
            // Graph takes v1 tokens: appid names the middle tier.
            let graph = try await Self.onBehalfOf(idp, assertion: incoming, scope: "https://graph.microsoft.com/User.Read")
            #expect(graph.status == 200, "\(graph.text)")
            let g = Self.claims(graph.json["access_token"]?.stringValue)
            #expect(g["appid"] == .string(Self.middle) && g["scp"] == "User.Read" && g["oid"] == user["oid"])
            // `.default` asks for every granted scope on the API.
            let all = try await Self.onBehalfOf(idp, assertion: incoming, scope: "api://contoso-downstream/.default")
            #expect(Self.claims(all.json["access_token"]?.stringValue)["scp"] == "read")
            // ADAL's v1 form: the API named by `resource`, as `{resource}/.default`.
            let v1 = try await idp.postForm("/\(Self.contoso)/oauth2/token", [
                ("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("client_id", Self.middle),
                ("client_secret", "middle-secret"), ("assertion", incoming), ("requested_token_use", "on_behalf_of"),
                ("resource", "api://contoso-downstream")])
            #expect(v1.status == 200, "\(v1.text)")
            #expect(Self.claims(v1.json["access_token"]?.stringValue)["scp"] == "read")
        }
    }

    @Test("on-behalf-of errors: audience, signature, consent, expiry, app-only tokens, public clients, parameters",
          arguments: MockIdentityProviderMode.allCases)
    func onBehalfOfErrors(mode: MockIdentityProviderMode) async throws {
        let dir = CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try await withMockIdentityProvider(configuration: try Self.configuration(try Self.makeCredentials(), in: dir), stateDirectory: dir, mode: mode) { idp in
            let incoming = try await Self.userToken(idp, scope: "api://contoso-middle/access_as_user")
            let forOtherAPI = try await Self.userToken(idp, scope: "api://contoso-api/access_as_user")
            // Other signature bytes that still decode ('A' and 'Q' leave the unused low bits zero).
            var tampered = incoming
            let replacement = tampered.hasSuffix("AAA") ? "QQQ" : "AAA"
            tampered.removeLast(3)
            tampered += replacement
            let appOnly = try await idp.postForm("/\(Self.contoso)/oauth2/v2.0/token", [
                ("grant_type", "client_credentials"), ("client_id", Self.daemon), ("client_secret", "daemon-secret"),
                ("scope", "api://contoso-middle/.default")]).json["access_token"]?.stringValue ?? ""
            // A token minted offline on the same state directory, expired by the time it is used.
            let minted = try CommandLineTests.run([
                "token", "--state-dir", dir, "--config", Self.root + "/config/default.yaml",
                "--config", Self.root + "/config/examples/on-behalf-of.yaml", "--client", Self.mobile,
                "--user", "alice@contoso.onmicrosoft.com", "--scope", "api://contoso-middle/access_as_user", "--lifetime", "1"])
            #expect(minted.status == 0, "\(minted.stderr)")
            try await Task.sleep(for: .seconds(2))
            let expired = minted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let cases: [(String, MockIDPResponse, Int, Int)] = [
                ("a token for another API", try await Self.onBehalfOf(idp, assertion: forOtherAPI, scope: "api://contoso-downstream/read"), 500131, 400),
                ("a bad signature", try await Self.onBehalfOf(idp, assertion: tampered, scope: "api://contoso-downstream/read"), 50013, 400),
                ("a scope not granted", try await Self.onBehalfOf(idp, assertion: incoming, scope: "api://contoso-downstream/write"), 65001, 400),
                ("an expired token", try await Self.onBehalfOf(idp, assertion: expired, scope: "api://contoso-downstream/read"), 500133, 400),
                ("an app-only token", try await Self.onBehalfOf(idp, assertion: appOnly, scope: "api://contoso-downstream/read"), 7000114, 400),
                ("a public client", try await Self.onBehalfOf(idp, assertion: incoming, scope: "api://contoso-downstream/read", client: Self.mobile, secret: nil), 7000218, 401),
                ("a wrong secret", try await Self.onBehalfOf(idp, assertion: incoming, scope: "api://contoso-downstream/read", secret: "nope"), 7000215, 401),
                ("no requested_token_use", try await Self.onBehalfOf(idp, assertion: incoming, scope: "api://contoso-downstream/read", use: nil), 900144, 400),
                ("requested_token_use=other", try await Self.onBehalfOf(idp, assertion: incoming, scope: "api://contoso-downstream/read", use: "other"), 90023, 400),
                ("not a JWT", try await Self.onBehalfOf(idp, assertion: "garbage", scope: "api://contoso-downstream/read"), 50027, 400),
            ]
            // Entra refuses application on-behalf-of as unauthorized_client (AADSTS7000114).
            #expect(cases.first { $0.0 == "an app-only token" }?.1.json["error"] == "unauthorized_client")
            for (name, r, code, status) in cases {
                #expect(r.status == status, "\(name): \(r.text)")
                #expect(r.json["error_codes"] == [.int(code)], "\(name): \(r.text)")
                #expect(r.json["access_token"] == nil, "\(name)")
            }
            let consent = try await Self.onBehalfOf(idp, assertion: incoming, scope: "api://contoso-downstream/write")
            #expect(consent.json["error"] == "invalid_grant" && consent.json["suberror"] == "consent_required")
        }
    }

    static func refresh(_ idp: MockIdentityProvider, client: String, token: String) async throws -> MockIDPResponse {
        try await idp.postForm("/\(contoso)/oauth2/v2.0/token", [
            ("grant_type", "refresh_token"), ("client_id", client), ("refresh_token", token),
            ("scope", "User.Read offline_access openid profile")])
    }

    @Test("family refresh tokens: one family app's token serves another; apps outside the family get client_mismatch",
          arguments: MockIdentityProviderMode.allCases)
    func familyRefreshTokens(mode: MockIdentityProviderMode) async throws {
        let dir = CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try await withMockIdentityProvider(configuration: try Self.configuration(try Self.makeCredentials(), in: dir), stateDirectory: dir, mode: mode) { idp in
            let first = try await idp.postForm("/\(Self.contoso)/oauth2/v2.0/token", [
                ("grant_type", "password"), ("client_id", Self.mail), ("username", "alice@contoso.onmicrosoft.com"),
                ("password", "alice-password"), ("scope", "User.Read offline_access openid profile")])
            #expect(first.status == 200 && first.json["foci"] == "1", "\(first.text)")
            let familyToken = try #require(first.json["refresh_token"]?.stringValue)
            let sibling = try await Self.refresh(idp, client: Self.calendar, token: familyToken)
            #expect(sibling.status == 200, "\(sibling.text)")
            #expect(sibling.json["foci"] == "1")
            #expect(Self.claims(sibling.json["access_token"]?.stringValue)["appid"] == .string(Self.calendar))
            #expect(Self.claims(sibling.json["id_token"]?.stringValue)["aud"] == .string(Self.calendar))
            let outsider = try await Self.refresh(idp, client: Self.mobile, token: familyToken)
            #expect(outsider.status == 400 && outsider.json["error_codes"] == [70000], "\(outsider.text)")
            #expect(outsider.json["error_additional_info"] == ["client_mismatch"])
            // A refresh token of an app outside the family stays its own.
            let own = try await idp.postForm("/\(Self.contoso)/oauth2/v2.0/token", [
                ("grant_type", "password"), ("client_id", Self.mobile), ("username", "alice@contoso.onmicrosoft.com"),
                ("password", "alice-password"), ("scope", "User.Read offline_access")])
            #expect(own.json["foci"] == nil)
            let notShared = try await Self.refresh(idp, client: Self.mail, token: own.json["refresh_token"]?.stringValue ?? "")
            #expect(notShared.json["error_codes"] == [70000] && notShared.json["error_additional_info"] == nil, "\(notShared.text)")
        }
    }

    @Test("mockidp token signs with the key a server on the same state directory publishes, in the server's shape")
    func mintedTokens() async throws {
        let dir = CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let access = try CommandLineTests.run([
            "token", "--state-dir", dir, "--public-url", "http://127.0.0.1:9", "--client", Self.mobile,
            "--user", "alice@contoso.onmicrosoft.com", "--scope", "api://contoso-api/access_as_user",
            "--claim", "department=Research", "--claim", "level=3", "--claim", #"tags=["a","b"]"#, "--lifetime", "120"])
        #expect(access.status == 0, "\(access.stderr)")
        let id = try CommandLineTests.run(["token", "--state-dir", dir, "--kind", "id", "--version", "1",
                                           "--client", Self.mobile, "--user", "alice@contoso.onmicrosoft.com"])
        let app = try CommandLineTests.run(["token", "--state-dir", dir, "--client", Self.daemon, "--scope", "api://contoso-api/.default"])
        let keys = try await CommandLineTests.withServe([], stateDir: dir) { server in
            try await server.get("/\(Self.contoso)/discovery/v2.0/keys").json["keys"]?.arrayValue ?? []
        }
        let published = try keys.map { try JSONWebKey(json: $0) }
        for (name, run) in [("access", access), ("id", id), ("app", app)] {
            let jws = try CompactJWS(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            let key = try #require(published.first { .string($0.keyID) == jws.header["kid"] }, "\(name)")
            #expect(jws.verify(with: try key.publicKey()), "\(name)")
        }
        let a = try CompactJWS(access.stdout.trimmingCharacters(in: .whitespacesAndNewlines)).payload
        #expect(a["iss"] == .string("http://127.0.0.1:9/\(Self.contoso)/v2.0"))
        #expect(a["aud"] == .string(Self.contosoAPI) && a["scp"] == "access_as_user" && a["azp"] == .string(Self.mobile))
        #expect(a["department"] == "Research" && a["level"] == 3 && a["tags"] == ["a", "b"])
        #expect((a["exp"]?.intValue ?? 0) - (a["iat"]?.intValue ?? 0) == 120)
        let i = try CompactJWS(id.stdout.trimmingCharacters(in: .whitespacesAndNewlines)).payload
        #expect(i["ver"] == "1.0" && i["aud"] == .string(Self.mobile) && i["iss"] == .string("https://sts.windows.net/\(Self.contoso)/"))
        let p = try CompactJWS(app.stdout.trimmingCharacters(in: .whitespacesAndNewlines)).payload
        #expect(p["idtyp"] == "app" && p["roles"] == ["Reader", "Writer"])
    }

    @Test("mockidp token --defect alg-none: the clean token's header with alg none, kid (and v1's x5t) kept, an empty signature")
    func mintedAlgNone() throws {
        let dir = CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let kinds: [(String, [String])] = [
            ("access", ["--client", Self.mobile, "--user", "alice@contoso.onmicrosoft.com", "--scope", "api://contoso-api/access_as_user"]),
            ("app", ["--client", Self.daemon, "--scope", "api://contoso-api/.default"]),
            ("v1 id", ["--kind", "id", "--version", "1", "--client", Self.mobile, "--user", "alice@contoso.onmicrosoft.com"]),
            ("v2 id", ["--kind", "id", "--client", Self.mobile, "--user", "alice@contoso.onmicrosoft.com"]),
        ]
        for (name, arguments) in kinds {
            let clean = try CommandLineTests.run(["token", "--state-dir", dir] + arguments)
            let bad = try CommandLineTests.run(["token", "--state-dir", dir, "--defect", "alg-none"] + arguments)
            #expect(clean.status == 0 && bad.status == 0, "\(name): \(bad.stderr)")
            let cleanParts = try TamperFlowTests.parts(clean.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            let badParts = try TamperFlowTests.parts(bad.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(cleanParts.header.contains(#""alg":"RS256""#) && cleanParts.header.contains(#""kid":"#), "\(name): \(cleanParts.header)")
            #expect(badParts.header == cleanParts.header.replacing(#""alg":"RS256""#, with: #""alg":"none""#), "\(name): \(badParts.header)")
            #expect(badParts.signature.isEmpty, "\(name)")
            #expect(badParts.claims["sub"] == cleanParts.claims["sub"] && badParts.claims["aud"] == cleanParts.claims["aud"], "\(name)")
            if name == "v1 id" { #expect(badParts.header.contains(#""x5t":"#)) }
        }
    }

    @Test("mockidp token refuses what the server would refuse: exit 64 for names, 78 for a bad configuration")
    func mintErrors() throws {
        let dir = CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let unknownClient = try CommandLineTests.run(["token", "--state-dir", dir, "--client", "00000000-0000-0000-0000-000000000001"])
        #expect(unknownClient.status == 64 && unknownClient.stderr.contains("700016"))
        let unknownUser = try CommandLineTests.run(["token", "--state-dir", dir, "--client", Self.mobile, "--user", "nobody@contoso.com", "--scope", "User.Read"])
        #expect(unknownUser.status == 64 && unknownUser.stderr.contains("50034"))
        let badScope = try CommandLineTests.run(["token", "--state-dir", dir, "--client", Self.daemon, "--scope", "api://nothing/.default"])
        #expect(badScope.status == 64 && badScope.stderr.contains("500011"))
        #expect(try CommandLineTests.run(["token", "--state-dir", dir, "--kind", "id", "--client", Self.mobile]).status == 64)
        #expect(try CommandLineTests.run(["token", "--state-dir", dir, "--client", Self.mobile, "--lifetime", "0"]).status == 64)
        #expect(try CommandLineTests.run(["token", "--state-dir", dir, "--client", Self.mobile, "--claim", "novalue"]).status == 64)
        try "tenants: [{id: nope}]\n".write(toFile: dir + "/bad.yaml", atomically: true, encoding: .utf8)
        let bad = try CommandLineTests.run(["token", "--state-dir", dir, "--config", dir + "/bad.yaml", "--client", Self.mobile])
        #expect(bad.status == 78 && bad.stderr.contains("bad.yaml:1"))
    }
}
