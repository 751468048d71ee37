import Foundation
import MockIDP
import MockIDPJOSE
import MockIDPTesting
import Testing

/// The control API in both modes: every call and its errors, faults and claims challenges, key rotation, the clock,
/// the request log and reset; over real sockets, delays that hold no worker thread and the listener's body limit.
@Suite struct ControlAPITests {
    static let contoso = "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11"
    static let daemon = "9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d"
    static let mobile = "3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c"
    static let web = "5e8f1a2b-3c4d-4e5f-9a0b-1c2d3e4f5a6b"

    /// A control call: POST with `json` as the body when given (sent as it is, so it may be malformed), else GET.
    static func control(_ idp: MockIdentityProvider, _ path: String, _ json: String? = nil) async throws -> MockIDPResponse {
        if let json { return try await idp.postJSON("/_mockidp/" + path, text: json) }
        return try await idp.get("/_mockidp/" + path)
    }

    static func token(_ idp: MockIdentityProvider, tenant: String = contoso, _ form: [(String, String)]) async throws -> MockIDPResponse {
        try await idp.postForm("/\(tenant)/oauth2/v2.0/token", form)
    }

    static func clientCredentials(_ idp: MockIdentityProvider) async throws -> MockIDPResponse {
        try await token(idp, [("grant_type", "client_credentials"), ("client_id", daemon), ("client_secret", "daemon-secret"),
                              ("scope", "api://contoso-api/.default")])
    }

    static func password(_ idp: MockIdentityProvider, user: String = "alice", claims: String? = nil) async throws -> MockIDPResponse {
        var form = [("grant_type", "password"), ("client_id", mobile), ("username", "\(user)@contoso.onmicrosoft.com"),
                    ("password", "\(user)-password"), ("scope", "openid profile offline_access User.Read")]
        if let claims { form.append(("claims", claims)) }
        return try await token(idp, form)
    }

    /// The payload of a compact JWS.
    static func claims(_ token: String?) throws -> JSONValue {
        let jws = try CompactJWS(try #require(token))
        return .object(jws.payload)
    }

    static func kid(_ token: String?) throws -> String? {
        try CompactJWS(try #require(token)).header["kid"]?.stringValue
    }

    // MARK: users and apps

    @Test("users and apps added at run time sign in; a typo fails as in YAML; an unknown tenant is 404",
          arguments: MockIdentityProviderMode.allCases)
    func directoryEntries(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            let carol = #"{"username": "carol@contoso.onmicrosoft.com", "password": "carol-password", "name": "Carol Cruz", "claims": {"team": "blue"}}"#
            let added = try await Self.control(idp, "tenants/contoso.onmicrosoft.com/users", carol)
            #expect(added.status == 201, "\(added.text)")
            #expect(added.json["tenant"] == .string(Self.contoso))
            let signedIn = try await Self.password(idp, user: "carol")
            #expect(signedIn.status == 200, "\(signedIn.text)")
            #expect(try Self.claims(signedIn.json["id_token"]?.stringValue)["name"] == "Carol Cruz")
            #expect(try Self.claims(signedIn.json["access_token"]?.stringValue)["team"] == "blue")

            let typo = try await Self.control(idp, "tenants/\(Self.contoso)/users", #"{"username": "dave@contoso.onmicrosoft.com", "pasword": "x"}"#)
            #expect(typo.status == 400)
            let reasons = (typo.json["problems"]?.arrayValue ?? []).compactMap { $0["reason"]?.stringValue }
            #expect(reasons.contains { $0.contains("unknown key 'pasword'") }, "\(typo.text)")
            #expect(reasons.contains { $0.contains("password") })
            let wrongType = try await Self.control(idp, "tenants/\(Self.contoso)/users", #"{"username": "dave@contoso.onmicrosoft.com", "password": "x", "groups": "not-a-list"}"#)
            #expect(wrongType.status == 400, "\(wrongType.text)")
            let notJSON = try await Self.control(idp, "tenants/\(Self.contoso)/users", "{")
            #expect(notJSON.status == 400)
            let noTenant = try await Self.control(idp, "tenants/nowhere.example/users", carol)
            #expect(noTenant.status == 404)

            let app = #"{"clientId": "1e4b2c3d-5f6a-4b7c-8d9e-0f1a2b3c4d5e", "secret": "new-secret", "apiPermissions": {"api://contoso-api": ["Reader"]}}"#
            let addedApp = try await Self.control(idp, "tenants/\(Self.contoso)/apps", app)
            #expect(addedApp.status == 201, "\(addedApp.text)")
            #expect(addedApp.json["type"] == "confidential")
            let appToken = try await Self.token(idp, [("grant_type", "client_credentials"), ("client_id", "1e4b2c3d-5f6a-4b7c-8d9e-0f1a2b3c4d5e"),
                                                      ("client_secret", "new-secret"), ("scope", "api://contoso-api/.default")])
            #expect(appToken.status == 200, "\(appToken.text)")
            #expect(try Self.claims(appToken.json["access_token"]?.stringValue)["roles"] == ["Reader"])
            let badApp = try await Self.control(idp, "tenants/\(Self.contoso)/apps", #"{"clientId": "not-a-guid"}"#)
            #expect(badApp.status == 400)
            #expect(badApp.json["problems"]?.arrayValue?.first?["reason"]?.stringValue?.contains("GUID") == true, "\(badApp.text)")
        }
    }

    // MARK: claims

    @Test("extra claims go into the next matching token responses only",
          arguments: MockIdentityProviderMode.allCases)
    func extraClaims(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            let r = try await Self.control(idp, "claims", #"{"clientId": "\#(Self.daemon)", "claims": {"ctry": "NZ", "xms_extra": [1, 2]}, "count": 1}"#)
            #expect(r.status == 201, "\(r.text)")
            #expect(r.json["id"]?.intValue != nil)
            // Another client does not match and does not use the registration up.
            let other = try await Self.password(idp)
            #expect(try Self.claims(other.json["access_token"]?.stringValue)["ctry"] == nil)
            let first = try await Self.clientCredentials(idp)
            #expect(try Self.claims(first.json["access_token"]?.stringValue)["ctry"] == "NZ")
            #expect(try Self.claims(first.json["access_token"]?.stringValue)["xms_extra"] == [1, 2])
            let second = try await Self.clientCredentials(idp)
            #expect(try Self.claims(second.json["access_token"]?.stringValue)["ctry"] == nil)

            _ = try await Self.control(idp, "claims", #"{"username": "ALICE@contoso.onmicrosoft.com", "claims": {"aud": "someone-else"}, "count": 0}"#)
            for _ in 0..<2 {
                let alice = try await Self.password(idp)
                #expect(try Self.claims(alice.json["access_token"]?.stringValue)["aud"] == "someone-else")
                #expect(try Self.claims(alice.json["id_token"]?.stringValue)["aud"] == "someone-else")
            }
            let appOnly = try await Self.clientCredentials(idp)
            #expect(try Self.claims(appOnly.json["access_token"]?.stringValue)["aud"] != "someone-else")

            let missing = try await Self.control(idp, "claims", #"{"clientId": "x"}"#)
            #expect(missing.status == 400 && missing.text.contains("'claims' is required"))
            let unknown = try await Self.control(idp, "claims", #"{"claims": {}, "cuont": 2}"#)
            #expect(unknown.status == 400 && unknown.text.contains("unknown key 'cuont'"))
        }
    }

    // MARK: faults

    @Test("an AADSTS50076 fault is a claims challenge; a request whose claims answer it gets acrs and amr with mfa",
          arguments: MockIdentityProviderMode.allCases)
    func claimsChallenge(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            let f = try await Self.control(idp, "faults", #"{"endpoint": "token", "aadsts": 50076, "count": 0, "grantType": "password"}"#)
            #expect(f.status == 201, "\(f.text)")
            let challenged = try await Self.password(idp)
            #expect(challenged.status == 400)
            #expect(challenged.json["error"] == "invalid_grant")
            #expect(challenged.json["error_codes"] == [50076])
            #expect(challenged.json["suberror"] == "basic_action")
            let challenge = try #require(challenged.json["claims"]?.stringValue)
            #expect(challenge.contains("acrs"))
            // Still failing: the fault holds until answered (count 0).
            #expect(try await Self.password(idp).status == 400)
            // Claims that do not contain the challenge do not answer it.
            #expect(try await Self.password(idp, claims: #"{"access_token":{"xms_cc":{"values":["CP1"]}}}"#).status == 400)
            // MSAL merges its client capabilities into the challenge: still an answer.
            let answer = #"{"access_token":{"acrs":{"essential":true,"value":"c1"},"xms_cc":{"values":["CP1"]}}}"#
            let answered = try await Self.password(idp, claims: answer)
            #expect(answered.status == 200, "\(answered.text)")
            let at = try Self.claims(answered.json["access_token"]?.stringValue)
            #expect(at["acrs"] == ["c1"])
            #expect(at["amr"]?.arrayValue?.contains("mfa") == true)
            #expect(try Self.claims(answered.json["id_token"]?.stringValue)["amr"]?.arrayValue?.contains("mfa") == true)
            // A token without claims carries no step-up.
            _ = try await idp.execute("POST", "/_mockidp/reset")
            let plain = try await Self.password(idp)
            #expect(try Self.claims(plain.json["access_token"]?.stringValue)["acrs"] == nil)
            #expect(try Self.claims(plain.json["access_token"]?.stringValue)["amr"] == ["pwd"])
            // A malformed claims parameter is refused.
            let malformed = try await Self.password(idp, claims: "{not json")
            #expect(malformed.status == 400 && malformed.json["error"] == "invalid_request")
        }
    }

    @Test("a requireMfa user gets a 50076 challenge and passes once the request's claims ask for MFA",
          arguments: MockIdentityProviderMode.allCases)
    func requireMfaUser(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            let challenged = try await Self.password(idp, user: "bob")
            #expect(challenged.json["error_codes"] == [50076])
            let challenge = try #require(challenged.json["claims"]?.stringValue)
            let answered = try await Self.password(idp, user: "bob", claims: challenge)
            #expect(answered.status == 200, "\(answered.text)")
            #expect(try Self.claims(answered.json["access_token"]?.stringValue)["amr"] == ["pwd", "mfa"])
            let capolids = #"{"access_token":{"capolids":{"essential":true,"values":["01234567-89ab-cdef-fedc-ba9876543210"]}}}"#
            #expect(try await Self.password(idp, user: "bob", claims: capolids).status == 200)
        }
    }

    @Test("53003 carries a capolids challenge; 429 carries Retry-After; 5xx; filters and count",
          arguments: MockIdentityProviderMode.allCases)
    func faultShapes(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            _ = try await Self.control(idp, "faults", #"{"endpoint": "token", "aadsts": 53003}"#)
            let blocked = try await Self.clientCredentials(idp)
            #expect(blocked.status == 400 && blocked.json["suberror"] == "message_only")
            #expect(blocked.json["claims"]?.stringValue?.contains("capolids") == true)
            #expect(blocked.json["error_description"]?.stringValue?.hasPrefix("AADSTS53003: Access has been blocked") == true)
            #expect(try await Self.clientCredentials(idp).status == 200, "count 1 fails once")

            let throttle = try await Self.control(idp, "faults", #"{"endpoint": "token", "status": 429, "retryAfter": 7, "count": 2}"#)
            #expect(throttle.json["error"] == "temporarily_unavailable")
            for _ in 0..<2 {
                let r = try await Self.clientCredentials(idp)
                #expect(r.status == 429 && r.header("Retry-After") == "7")
                #expect(r.json["trace_id"]?.stringValue != nil)
            }
            #expect(try await Self.clientCredentials(idp).status == 200)

            _ = try await Self.control(idp, "faults", #"{"endpoint": "keys", "status": 503}"#)
            let outage = try await idp.get("/\(Self.contoso)/discovery/v2.0/keys")
            #expect(outage.status == 503 && outage.header("Retry-After") == "1" && outage.json["error"] == "temporarily_unavailable")
            _ = try await Self.control(idp, "faults", #"{"endpoint": "discovery", "status": 500}"#)
            let broken = try await idp.get("/\(Self.contoso)/v2.0/.well-known/openid-configuration")
            #expect(broken.status == 500 && broken.json["error"] == "server_error")

            // Filters: only the named client, tenant (by any name) and grant type.
            _ = try await Self.control(idp, "faults", #"{"endpoint": "token", "clientId": "\#(Self.mobile)", "tenant": "contoso.onmicrosoft.com", "error": "invalid_grant", "aadsts": 50126}"#)
            #expect(try await Self.clientCredentials(idp).status == 200)
            let otherTenant = try await Self.token(idp, tenant: "fabrikam.onmicrosoft.com", [("grant_type", "password"), ("client_id", Self.mobile)])
            #expect(otherTenant.json["error_codes"] != [50126])
            let hit = try await Self.password(idp)
            #expect(hit.json["error_codes"] == [50126], "\(hit.text)")

            let faults = try await Self.control(idp, "faults")
            #expect(faults.json["faults"]?.arrayValue?.isEmpty == true)
            let bad = try await Self.control(idp, "faults", #"{"endpoint": "tokne", "status": 200, "delayMs": -1}"#)
            #expect(bad.status == 400)
            let problems = bad.json["problems"]?.arrayValue ?? []
            #expect(problems.count == 3, "\(bad.text)")
            // A code outside the vocabulary is a typo, not an error a client could meet.
            let typo = try await Self.control(idp, "faults", #"{"endpoint": "token", "error": "invalid_grnat", "suberror": "basic-action"}"#)
            #expect(typo.status == 400 && typo.text.contains("'error' must be") && typo.text.contains("'suberror' must be"), "\(typo.text)")
        }
    }

    @Test("a fault on authorize goes to the app's redirect URI when client and redirect check out, else to the error page",
          arguments: MockIdentityProviderMode.allCases)
    func authorizeFault(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            _ = try await Self.control(idp, "faults", #"{"endpoint": "authorize", "error": "interaction_required", "aadsts": 50076, "count": 2}"#)
            let query = "client_id=\(Self.web)&response_type=code&redirect_uri=http%3A%2F%2Flocalhost&scope=openid&state=s1"
            let redirected = try await idp.get("/\(Self.contoso)/oauth2/v2.0/authorize?\(query)")
            #expect(redirected.status == 302)
            let location = try #require(redirected.header("Location"))
            #expect(location.hasPrefix("http://localhost"), "\(location)")
            #expect(location.contains("error=interaction_required") && location.contains("state=s1"), "\(location)")
            let unknownClient = try await idp.get("/\(Self.contoso)/oauth2/v2.0/authorize?client_id=00000000-0000-0000-0000-000000000001&response_type=code&redirect_uri=http%3A%2F%2Flocalhost&scope=openid")
            #expect(unknownClient.status == 400)
            #expect(unknownClient.text.contains("AADSTS50076"))
        }
    }

    @Test("a delay-only fault delays an answer that is an error too, and leaves the error as it is",
          arguments: MockIdentityProviderMode.allCases)
    func delayedError(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            let r = try await Self.control(idp, "faults", #"{"endpoint": "token", "delayMs": 1500}"#)
            #expect(r.status == 201, "\(r.text)")
            let start = Date()
            let refused = try await Self.token(idp, [("grant_type", "client_credentials"), ("client_id", Self.daemon),
                                                     ("client_secret", "wrong"), ("scope", "api://contoso-api/.default")])
            #expect(Date().timeIntervalSince(start) >= 1.4)
            #expect(refused.status == 401 && refused.json["error"] == "invalid_client", "\(refused.text)")
        }
    }

    @Test("a delayed answer holds no worker thread: more delayed requests than threads, and others answered at once")
    func delays() async throws {
        // Worker threads are the listener's: a server built with two, reached over real sockets.
        try await withStartedServer(ServerOptions(ports: [0], tls: false, threadsPerListener: 2)) { server in
            try await withMockIDPClient(baseURL: try #require(server.baseURLs.first)) { client in
                let r = try await client.postJSON("/_mockidp/faults", text: #"{"endpoint": "discovery", "delayMs": 6000, "count": 6}"#)
                #expect(r.status == 201 && r.json["status"] == nil)
                try await withThrowingTaskGroup(of: (Int, TimeInterval).self) { group in
                    for _ in 0..<6 {
                        group.addTask {
                            // Timed from this request's own start: other suites running at the same time may start it late.
                            let start = Date()
                            let reply = try await client.get("/\(Self.contoso)/v2.0/.well-known/openid-configuration")
                            return (reply.status, Date().timeIntervalSince(start))
                        }
                    }
                    // While six connections wait on two worker threads, others are served at once.
                    try await Task.sleep(for: .milliseconds(300))
                    for _ in 0..<3 {
                        let quickStart = Date()
                        let quick = try await client.get("/_mockidp/health")
                        #expect(quick.status == 200)
                        // Blocked workers would hold it until the first delays end (5.7 s from here). The delay is long
                        // so the margin can be wide: on a loaded CI machine one answer once took 3.0 s.
                        #expect(Date().timeIntervalSince(quickStart) < 4.5)
                    }
                    for try await (status, elapsed) in group {
                        #expect(status == 200, "the real answer, delayed")
                        // Two workers serving six 6 s delays two at a time would keep the last ones 18 s.
                        #expect(elapsed >= 5.9 && elapsed < 11.9, "delayed about 6 s, all at once: \(elapsed)")
                    }
                }
                #expect(try await client.get("/\(Self.contoso)/v2.0/.well-known/openid-configuration").status == 200)
            }
        }
    }

    // MARK: keys

    @Test("after keys/rotate tokens carry the new kid and old tokens still verify; keys/retire drops the old key",
          arguments: MockIdentityProviderMode.allCases)
    func keyRotation(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            let keysURL = "/\(Self.contoso)/discovery/v2.0/keys"
            let before = try await Self.password(idp)
            let oldToken = try #require(before.json["access_token"]?.stringValue)
            let oldKid = try #require(try Self.kid(oldToken))
            let rotated = try await Self.control(idp, "keys/rotate", "")
            #expect(rotated.status == 200)
            let newKid = try #require(rotated.json["kid"]?.stringValue)
            #expect(newKid != oldKid && rotated.json["previous"] == .string(oldKid))
            let after = try await Self.password(idp)
            let newToken = try #require(after.json["access_token"]?.stringValue)
            #expect(try Self.kid(newToken) == newKid)
            let keySet = try await idp.get(keysURL).json
            #expect(Set(keySet["keys"]?.arrayValue?.compactMap { $0["kid"]?.stringValue } ?? []) == [oldKid, newKid])
            #expect(try Self.verifies(oldToken, keySet) && Self.verifies(newToken, keySet))
            #expect(try await idp.get("/oidc/userinfo", headers: ["Authorization": "Bearer \(oldToken)"]).status == 200)

            let retired = try await Self.control(idp, "keys/retire", "")
            #expect(retired.json["retired"] == .array([.string(oldKid)]))
            let trimmed = try await idp.get(keysURL).json
            #expect(trimmed["keys"]?.arrayValue?.compactMap { $0["kid"]?.stringValue } == [newKid])
            #expect(try !Self.verifies(oldToken, trimmed) && Self.verifies(newToken, trimmed))
            #expect(try await idp.get("/oidc/userinfo", headers: ["Authorization": "Bearer \(oldToken)"]).status == 401)
            #expect(try await idp.get("/oidc/userinfo", headers: ["Authorization": "Bearer \(newToken)"]).status == 200)
        }
    }

    /// True when a key of `keySet` with the token's `kid` verifies its signature.
    static func verifies(_ token: String, _ keySet: JSONValue) throws -> Bool {
        let jws = try CompactJWS(token)
        guard let kid = jws.header["kid"]?.stringValue,
              let jwk = keySet["keys"]?.arrayValue?.first(where: { $0["kid"]?.stringValue == kid }) else { return false }
        return jws.verify(with: try JSONWebKey(json: jwk).publicKey())
    }

    // MARK: clock

    @Test("clock moves token, refresh token, authorization code and device code expiry",
          arguments: MockIdentityProviderMode.allCases)
    func clock(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            let tokens = try await Self.password(idp)
            let at = try #require(tokens.json["access_token"]?.stringValue)
            let rt = try #require(tokens.json["refresh_token"]?.stringValue)
            let device = try await idp.postForm("/\(Self.contoso)/oauth2/v2.0/devicecode", [("client_id", Self.mobile), ("scope", "openid")])
            let deviceCode = try #require(device.json["device_code"]?.stringValue)
            // An app that signs in without a page (added through the control API) gives an authorization code.
            let ci = "2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f6a"
            let added = try await Self.control(idp, "tenants/\(Self.contoso)/apps", #"{"clientId": "\#(ci)", "type": "public", "redirectUris": ["http://localhost"], "headlessSignIn": true}"#)
            #expect(added.status == 201, "\(added.text)")
            func code() async throws -> String {
                let signIn = try await idp.get("/\(Self.contoso)/oauth2/v2.0/authorize?client_id=\(ci)&response_type=code&redirect_uri=http%3A%2F%2Flocalhost&scope=openid&login_hint=alice%40contoso.onmicrosoft.com")
                let location = try #require(signIn.header("Location"), "\(signIn.status) \(signIn.text)")
                let items = URLComponents(string: location)?.queryItems ?? []
                return try #require(items.first { $0.name == "code" }?.value, "\(location)")
            }
            let staleCode = try await code()

            let moved = try await Self.control(idp, "clock", #"{"advance": 3601}"#)
            #expect(moved.status == 200 && moved.json["offset"] == 3601)
            let now = try #require(moved.json["now"]?.intValue)
            let movedAt = Date()
            #expect(abs(now - Int(movedAt.timeIntervalSince1970) - 3601) < 5)
            let expired = try await idp.get("/oidc/userinfo", headers: ["Authorization": "Bearer \(at)"])
            #expect(expired.status == 401 && expired.text.contains("expired"), "\(expired.text)")
            let poll = try await idp.postForm("/\(Self.contoso)/oauth2/v2.0/token", [
                ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"), ("client_id", Self.mobile), ("device_code", deviceCode)])
            #expect(poll.json["error"] == "expired_token", "\(poll.text)")
            let redeem = { (c: String) in
                try await Self.token(idp, [("grant_type", "authorization_code"), ("client_id", ci), ("code", c),
                                           ("redirect_uri", "http://localhost"), ("scope", "openid")])
            }
            let stale = try await redeem(staleCode)
            #expect(stale.status == 400 && stale.json["error"] == "invalid_grant", "\(stale.text)")
            #expect(try await redeem(try await code()).status == 200, "a code issued after the move still works")
            let fresh = try await Self.password(idp)
            // The moved clock ran on while the calls since were answered: seconds, on a machine busy with both modes.
            let since = Int(Date().timeIntervalSince(movedAt).rounded(.up))
            let iat = try Self.claims(fresh.json["access_token"]?.stringValue)["iat"]?.intValue
            #expect(iat.map { abs($0 - now) < 5 + since } == true, "iat \(iat ?? 0), moved clock \(now), \(since) s since")

            _ = try await Self.control(idp, "clock", #"{"advance": 86400}"#)
            let refresh = try await Self.token(idp, [("grant_type", "refresh_token"), ("client_id", Self.mobile), ("refresh_token", rt)])
            #expect(refresh.status == 400 && refresh.json["error"] == "invalid_grant", "\(refresh.text)")

            #expect(try await Self.control(idp, "clock", #"{"advance": -5}"#).status == 400)
            #expect(try await Self.control(idp, "clock", #"{}"#).status == 400)
        }
    }

    // MARK: requests and reset

    @Test("requests lists rejected requests with the reason in words, newest last, without queries",
          arguments: MockIdentityProviderMode.allCases)
    func requestLog(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            _ = try await idp.postForm("/\(Self.contoso)/oauth2/v2.0/token", [("grant_type", "password"), ("client_id", Self.mobile),
                                                                              ("username", "alice@contoso.onmicrosoft.com"), ("password", "wrong"), ("scope", "openid")])
            _ = try await idp.get("/no/such/path?secret=hunter2")
            _ = try await Self.clientCredentials(idp)
            let log = try await Self.control(idp, "requests")
            let entries = try #require(log.json["requests"]?.arrayValue)
            #expect(entries.count == 3, "\(log.text)")
            #expect(entries[0]["status"] == 400 && entries[0]["reason"]?.stringValue?.contains("password") == true, "\(log.text)")
            #expect(entries[1]["path"] == "/no/such/path" && entries[1]["status"] == 404)
            #expect(entries[1]["reason"]?.stringValue?.contains("no endpoint") == true)
            #expect(entries[2]["status"] == 200 && entries[2]["reason"] == .null)
            #expect(!log.text.contains("hunter2"))
        }
    }

    @Test("a body over the listener's limit is refused with 413 and logged with the reason, after what came before")
    func requestLogOfOversizedBody() async throws {
        // The body limit is the listener's (it refuses before the routes see the request): over real sockets only.
        try await withMockIdentityProvider { idp in
            _ = try await idp.get("/no/such/path")
            let refused = try await idp.execute("POST", "/\(Self.contoso)/oauth2/v2.0/token",
                                                headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                                body: [UInt8](repeating: 0, count: 2_000_000))
            #expect(refused.status == 413)
            _ = try await Self.clientCredentials(idp)
            let log = try await Self.control(idp, "requests")
            let entries = try #require(log.json["requests"]?.arrayValue)
            #expect(entries.count == 3, "\(log.text)")
            #expect(entries[0]["status"] == 404)
            #expect(entries[1]["path"] == .string("/\(Self.contoso)/oauth2/v2.0/token"), "\(log.text)")
            #expect(entries[1]["status"] == 413 && entries[1]["reason"]?.stringValue?.contains("larger than") == true, "\(log.text)")
            #expect(entries[2]["status"] == 200 && entries[2]["reason"] == .null)
        }
    }

    @Test("reset restores the loaded directory and clears faults, claims, clock, refresh tokens and the log",
          arguments: MockIdentityProviderMode.allCases)
    func reset(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            _ = try await Self.control(idp, "tenants/\(Self.contoso)/users", #"{"username": "carol@contoso.onmicrosoft.com", "password": "carol-password"}"#)
            let rt = try #require(try await Self.password(idp).json["refresh_token"]?.stringValue)
            _ = try await Self.control(idp, "faults", #"{"endpoint": "keys", "status": 500}"#)
            _ = try await Self.control(idp, "claims", #"{"claims": {"x": 1}}"#)
            _ = try await Self.control(idp, "clock", #"{"advance": 100}"#)
            let r = try await Self.control(idp, "reset", "")
            #expect(r.status == 200)
            #expect(abs((r.json["now"]?.intValue ?? 0) - Int(Date().timeIntervalSince1970)) < 5)
            #expect(try await Self.password(idp, user: "carol").json["error_codes"] == [50034])
            #expect(try await idp.get("/\(Self.contoso)/discovery/v2.0/keys").status == 200)
            #expect(try Self.claims(try await Self.clientCredentials(idp).json["access_token"]?.stringValue)["x"] == nil)
            let refresh = try await Self.token(idp, [("grant_type", "refresh_token"), ("client_id", Self.mobile), ("refresh_token", rt)])
            #expect(refresh.status == 400)
            let log = try await Self.control(idp, "requests")
            #expect(log.json["requests"]?.arrayValue?.count == 4, "only the requests since the reset: \(log.text)")
        }
    }
}
