import Foundation
import MockIDPConfiguration
import MockIDPCore
import MockIDPJOSE
import MockIDPTesting
import Testing

/// Azure AD B2C in both modes against config/examples/b2c.yaml: every authority form, the claims, and each B2C error
/// a client can trigger.
@Suite struct B2CEndpointTests {
    static let tenantID = "a4cf0827-8d79-45b2-ab17-599d4e41cad3"
    static let domain = "fabrikamb2c.onmicrosoft.com"
    static let mobile = "8a1d2b3c-4e5f-4a6b-9c7d-e8f9a0b1c2d3"
    static let web = "3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f"
    static let spa = "d9e3ff98-d572-4200-9bcf-fd6e72f0ecc9"
    static let api = "5386caa5-bae5-45ee-b4fb-5203bcc41917"
    static let frankOID = "2f0c6e53-8a4b-4c1d-9e7f-0a1b2c3d4e5f"
    static let susi = "B2C_1_signupsignin"
    static let ropc = "B2C_1_ROPC_Auth"
    static let ropcApp = "6b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e"
    static let verifier = String(repeating: "a", count: 43)
    static let challenge = Base64URL.encode(Digest.sha256(Array(verifier.utf8)))

    static func configuration(policyClaim: String = "tfp") throws -> IdentityProviderConfiguration {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("config/examples/b2c.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "policyClaim: tfp", with: "policyClaim: \(policyClaim)")
        return try ConfigurationLoader.parse(text: text, fileName: "b2c.yaml", baseDirectory: root.path)
    }

    static func claims(_ token: String?) -> JSONValue {
        guard let token, let payload = token.split(separator: ".").dropFirst().first, let bytes = Base64URL.decode(payload) else { return .null }
        return (try? JSONValue.parse(bytes)) ?? .null
    }

    static func query(_ location: String?) -> [String: String] {
        // Form encoding writes spaces as '+', which URLComponents does not decode.
        let text = location?.replacingOccurrences(of: "#", with: "?").replacingOccurrences(of: "+", with: "%20")
        guard let text, let components = URLComponents(string: text) else { return [:] }
        return Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { a, _ in a })
    }

    /// The authorize URL of a policy, in the path form unless `prefix` (`/tfp`, `/te`) or `queryForm` say otherwise.
    static func authorizeURL(_ idp: MockIdentityProvider, policy: String = susi, prefix: String = "", queryForm: Bool = false,
                             clientID: String = mobile, redirectURI: String = "http://localhost", scope: String = "openid offline_access",
                             extra: [(String, String)] = []) -> String {
        var items = [("client_id", clientID), ("redirect_uri", redirectURI), ("response_type", "code"), ("scope", scope),
                     ("state", "st"), ("nonce", "nn"), ("code_challenge", challenge), ("code_challenge_method", "S256"),
                     ("client_info", "1")]
        items += extra
        let path = queryForm ? "\(prefix)/\(domain)/oauth2/v2.0/authorize" : "\(prefix)/\(domain)/\(policy)/oauth2/v2.0/authorize"
        var query = items.map { "\(percentEncoded($0.0))=\(percentEncoded($0.1))" }.joined(separator: "&")
        if queryForm { query = "p=\(policy)&" + query }
        return idp.baseURL + path + "?" + query
    }

    /// Signs `username` in on the policy's page and returns the redirect's parameters.
    static func signIn(_ idp: MockIdentityProvider, _ browser: Browser, url: String, username: String = "frank@example.com",
                       password: String = "Frank-Passw0rd") async throws -> [String: String] {
        let page = try await browser.send("GET", url)
        #expect(page.status == 200, "\(page.text.prefix(300))")
        let done = try await browser.submit(page, action: "signin", [("username", username), ("password", password)])
        #expect(done.status == 302, "\(done.text.prefix(300))")
        return query(done.header("Location"))
    }

    static func redeem(_ idp: MockIdentityProvider, code: String, policy: String = susi, prefix: String = "",
                       extra: [(String, String)] = [("client_id", mobile)]) async throws -> MockIDPResponse {
        try await idp.postForm("\(prefix)/\(domain)/\(policy)/oauth2/v2.0/token",
                               [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", "http://localhost"),
                                ("code_verifier", verifier), ("scope", "openid offline_access \(mobile)"), ("client_info", "1")] + extra)
    }

    /// A password grant at the ROPC policy, as B2C's ROPC article writes it.
    static func ropcGrant(_ idp: MockIdentityProvider, prefix: String = "", policy: String = ropc, clientID: String = ropcApp,
                          username: String = "frank@example.com", password: String = "Frank-Passw0rd",
                          extra: [(String, String)] = []) async throws -> MockIDPResponse {
        try await idp.postForm("\(prefix)/\(domain)/\(policy)/oauth2/v2.0/token",
                               [("grant_type", "password"), ("username", username), ("password", password), ("client_id", clientID),
                                ("scope", "openid offline_access \(clientID)"), ("response_type", "token id_token")] + extra)
    }

    static func b2cCode(_ reply: MockIDPResponse) -> String? {
        reply.json["error_description"]?.stringValue?.split(separator: ":").first.map(String.init)
    }

    @Test("discovery answers in the path, tfp, te and ?p= forms, with the policy in any case, on a b2clogin host too",
          arguments: MockIdentityProviderMode.allCases)
    func discoveryInEveryForm(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: .value(try Self.configuration()), mode: mode) { idp in
            let issuer = JSONValue.string("\(idp.baseURL)/\(Self.tenantID)/v2.0/")
            for prefix in ["", "/tfp", "/te"] {
                for policy in ["B2C_1_signupsignin", "b2c_1_SIGNUPSIGNIN"] {
                    let doc = try await idp.get("\(prefix)/\(Self.domain)/\(policy)/v2.0/.well-known/openid-configuration")
                    #expect(doc.status == 200)
                    #expect(doc.json["issuer"] == issuer)
                    #expect(doc.json["token_endpoint"] == .string("\(idp.baseURL)/\(Self.domain)/b2c_1_signupsignin/oauth2/v2.0/token"))
                    #expect(doc.json["jwks_uri"] == .string("\(idp.baseURL)/\(Self.domain)/b2c_1_signupsignin/discovery/v2.0/keys"))
                    #expect(doc.json["device_authorization_endpoint"] == nil && doc.json["cloud_instance_name"] == nil)
                    #expect(doc.json["claims_supported"]?.arrayValue?.contains("tfp") == true)
                }
            }
            let byGUID = try await idp.get("/\(Self.tenantID)/B2C_1_passwordreset/v2.0/.well-known/openid-configuration")
            #expect(byGUID.json["authorization_endpoint"] == .string("\(idp.baseURL)/\(Self.tenantID)/b2c_1_passwordreset/oauth2/v2.0/authorize"))
            let query = try await idp.get("/\(Self.domain)/v2.0/.well-known/openid-configuration?p=B2C_1_SignUpSignIn")
            #expect(query.json["issuer"] == issuer)
            #expect(query.json["authorization_endpoint"] == .string("\(idp.baseURL)/\(Self.domain)/oauth2/v2.0/authorize?p=b2c_1_signupsignin"))
            #expect(query.json["jwks_uri"] == .string("\(idp.baseURL)/\(Self.domain)/discovery/v2.0/keys?p=b2c_1_signupsignin"))
            let hosted = try await idp.get("/\(Self.domain)/\(Self.susi)/v2.0/.well-known/openid-configuration",
                                           headers: ["Host": "fabrikamb2c.b2clogin.com"])
            #expect(hosted.json["issuer"] == .string("http://fabrikamb2c.b2clogin.com/\(Self.tenantID)/v2.0/"))
            #expect(hosted.json["token_endpoint"] == .string("http://fabrikamb2c.b2clogin.com/\(Self.domain)/b2c_1_signupsignin/oauth2/v2.0/token"))
        }
    }

    @Test("every key-set form publishes the signing key as B2C does: kid and nbf, no x5c or issuer",
          arguments: MockIdentityProviderMode.allCases)
    func keysInEveryForm(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: .value(try Self.configuration()), mode: mode) { idp in
            let entra = try await idp.get("/common/discovery/v2.0/keys").json["keys"]?.arrayValue?.first?["kid"]
            for path in ["/\(Self.domain)/\(Self.susi)/discovery/v2.0/keys", "/tfp/\(Self.domain)/\(Self.susi)/discovery/v2.0/keys",
                         "/te/\(Self.domain)/\(Self.susi)/discovery/v2.0/keys", "/\(Self.domain)/discovery/v2.0/keys?p=\(Self.susi)"] {
                let r = try await idp.get(path)
                let key = r.json["keys"]?.arrayValue?.first
                #expect(r.status == 200, "\(path)")
                #expect(key?["kid"] == entra && key?["nbf"]?.intValue != nil && key?["x5c"] == nil && key?["issuer"] == nil, "\(path)")
            }
        }
    }

    @Test("a code flow in each authority form gives B2C's tokens and client_info",
          arguments: MockIdentityProviderMode.allCases)
    func codeFlowInEveryForm(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: .value(try Self.configuration()), mode: mode) { idp in
            for (prefix, queryForm) in [("", false), ("/tfp", false), ("/te", false), ("", true)] {
                let browser = Browser(idp)
                let response = try await Self.signIn(idp, browser, url: Self.authorizeURL(idp, prefix: prefix, queryForm: queryForm))
                #expect(response["state"] == "st")
                let code = try #require(response["code"], "\(prefix) \(queryForm)")
                let info = Base64URL.decode(response["client_info"] ?? "").flatMap { try? JSONValue.parse($0) }
                #expect(info == ["uid": .string("\(Self.frankOID)-b2c_1_signupsignin"), "utid": .string(Self.tenantID)])
                let tokenURL = queryForm ? "\(idp.baseURL)/\(Self.domain)/oauth2/v2.0/token?p=\(Self.susi)"
                    : "\(idp.baseURL)\(prefix)/\(Self.domain)/\(Self.susi)/oauth2/v2.0/token"
                let reply = try await idp.postForm(tokenURL, [("grant_type", "authorization_code"), ("client_id", Self.mobile), ("code", code),
                                                              ("redirect_uri", "http://localhost"), ("code_verifier", Self.verifier),
                                                              ("scope", "openid offline_access \(Self.mobile)"), ("client_info", "1")])
                #expect(reply.status == 200, "\(reply.text)")
                let id = Self.claims(reply.json["id_token"]?.stringValue)
                #expect(id["ver"] == "1.0" && id["iss"] == .string("\(idp.baseURL)/\(Self.tenantID)/v2.0/"))
                #expect(id["sub"] == .string(Self.frankOID) && id["oid"] == .string(Self.frankOID))
                #expect(id["aud"] == .string(Self.mobile) && id["nonce"] == "nn" && id["auth_time"]?.intValue != nil)
                #expect(id["emails"] == ["frank@example.com"] && id["tfp"] == .string(Self.susi) && id["tid"] == nil)
                #expect(id["newUser"] == nil && id["idp"] == nil && id["acr"] == nil)
                let access = Self.claims(reply.json["access_token"]?.stringValue)
                #expect(access["aud"] == .string(Self.mobile) && access["azp"] == .string(Self.mobile) && access["scp"] == nil)
                #expect(reply.json["resource"] == .string(Self.mobile) && reply.json["refresh_token"] != nil)
                #expect(reply.json["client_info"] == response["client_info"].map { .string($0) })
                // The refresh token works at the policy, and names the policy called.
                let refreshed = try await idp.postForm(tokenURL, [("grant_type", "refresh_token"), ("client_id", Self.mobile),
                                                                  ("refresh_token", reply.json["refresh_token"]?.stringValue ?? ""),
                                                                  ("scope", "openid api://fabrikamb2c-api/read")])
                #expect(refreshed.status == 200, "\(refreshed.text)")
                #expect(Self.claims(refreshed.json["access_token"]?.stringValue)["scp"] == "read")
                #expect(Self.claims(refreshed.json["access_token"]?.stringValue)["aud"] == .string(Self.api))
            }
        }
    }

    @Test("policyClaim acr puts the policy into acr instead of tfp", arguments: MockIdentityProviderMode.allCases)
    func acrClaim(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: .value(try Self.configuration(policyClaim: "acr")), mode: mode) { idp in
            let code = try #require(try await Self.signIn(idp, Browser(idp), url: Self.authorizeURL(idp))["code"])
            let id = Self.claims(try await Self.redeem(idp, code: code).json["id_token"]?.stringValue)
            #expect(id["acr"] == .string(Self.susi) && id["tfp"] == nil)
            let doc = try await idp.get("/\(Self.domain)/\(Self.susi)/v2.0/.well-known/openid-configuration")
            #expect(doc.json["claims_supported"]?.arrayValue?.contains("acr") == true)
        }
    }

    @Test("sign-up creates the user, whose first token says newUser, and the user is gone after restoring the configuration",
          arguments: MockIdentityProviderMode.allCases)
    func signUp(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: .value(try Self.configuration()), mode: mode) { idp in
            let browser = Browser(idp)
            let page = try await browser.send("GET", Self.authorizeURL(idp))
            let form = try await browser.submit(page, action: "signup_page")
            #expect(form.text.contains("Sign up"))
            let taken = try await browser.submit(form, action: "signup", [
                ("email", "frank@example.com"), ("newPassword", "Ivan-Passw0rd"), ("reenterPassword", "Ivan-Passw0rd"), ("displayName", "F")])
            #expect(taken.status == 200 && taken.text.contains("A user with the specified ID already exists"))
            let mismatch = try await browser.submit(form, action: "signup", [
                ("email", "ivan@example.com"), ("newPassword", "Ivan-Passw0rd"), ("reenterPassword", "Ivan-Passw0rd!"), ("displayName", "I")])
            #expect(mismatch.text.contains("do not match"))
            let done = try await browser.submit(form, action: "signup", [
                ("email", "ivan@example.com"), ("newPassword", "Ivan-Passw0rd"), ("reenterPassword", "Ivan-Passw0rd"),
                ("displayName", "Ivan Ilic"), ("givenName", "Ivan"), ("surname", "Ilic")])
            let code = try #require(Self.query(done.header("Location"))["code"], "\(done.text.prefix(300))")
            let id = Self.claims(try await Self.redeem(idp, code: code).json["id_token"]?.stringValue)
            #expect(id["newUser"] == true && id["emails"] == ["ivan@example.com"] && id["name"] == "Ivan Ilic" && id["given_name"] == "Ivan")
            let again = try #require(try await Self.signIn(idp, Browser(idp), url: Self.authorizeURL(idp), username: "ivan@example.com",
                                                           password: "Ivan-Passw0rd")["code"])
            let second = Self.claims(try await Self.redeem(idp, code: again).json["id_token"]?.stringValue)
            #expect(second["oid"] == id["oid"] && second["newUser"] == nil)
            idp.server.provider.served.restoreLoadedConfiguration()
            let gone = Browser(idp)
            let page2 = try await gone.send("GET", Self.authorizeURL(idp))
            let failed = try await gone.submit(page2, action: "signin", [("username", "ivan@example.com"), ("password", "Ivan-Passw0rd")])
            #expect(failed.status == 200 && failed.text.contains("We can&#39;t seem to find your account."))
        }
    }

    @Test("forgot password sends AADB2C90118, the reset policy sets a new password, cancel sends AADB2C90091",
          arguments: MockIdentityProviderMode.allCases)
    func passwordResetAndCancel(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: .value(try Self.configuration()), mode: mode) { idp in
            let browser = Browser(idp)
            let page = try await browser.send("GET", Self.authorizeURL(idp))
            let forgot = Self.query(try await browser.submit(page, action: "forgot").header("Location"))
            #expect(forgot["error"] == "access_denied" && forgot["state"] == "st")
            #expect(forgot["error_description"]?.hasPrefix("AADB2C90118: The user has forgotten their password.\r\nCorrelation ID: ") == true)
            let cancel = Self.query(try await browser.submit(page, action: "cancel").header("Location"))
            #expect(cancel["error"] == "access_denied" && cancel["error_description"]?.hasPrefix("AADB2C90091: ") == true)

            let reset = try await browser.send("GET", Self.authorizeURL(idp, policy: "B2C_1_passwordreset"))
            #expect(reset.text.contains("Reset your password") && !reset.text.contains("Sign up now"))
            let weak = try await browser.submit(reset, action: "reset", [
                ("email", "frank@example.com"), ("newPassword", "password"), ("reenterPassword", "password")])
            #expect(weak.text.contains("between 8 and 64 characters"))
            let unknown = try await browser.submit(reset, action: "reset", [
                ("email", "nobody@example.com"), ("newPassword", "Frank-N3w-pw"), ("reenterPassword", "Frank-N3w-pw")])
            #expect(unknown.text.contains("An account could not be found"))
            let done = try await browser.submit(reset, action: "reset", [
                ("email", "frank@example.com"), ("newPassword", "Frank-N3w-pw"), ("reenterPassword", "Frank-N3w-pw")])
            let code = try #require(Self.query(done.header("Location"))["code"])
            let id = Self.claims(try await Self.redeem(idp, code: code, policy: "B2C_1_passwordreset").json["id_token"]?.stringValue)
            #expect(id["tfp"] == "B2C_1_passwordreset" && id["oid"] == .string(Self.frankOID))
            let old = Browser(idp)
            let page2 = try await old.send("GET", Self.authorizeURL(idp))
            let refused = try await old.submit(page2, action: "signin", [("username", "frank@example.com"), ("password", "Frank-Passw0rd")])
            #expect(refused.text.contains("Your password is incorrect."))
            #expect(try await Self.signIn(idp, Browser(idp), url: Self.authorizeURL(idp), password: "Frank-N3w-pw")["code"] != nil)
        }
    }

    /// B2C's web server's 404 page (`OAuthError.policyNotFound` has the sources).
    static func isNotFoundPage(_ r: MockIDPResponse) -> Bool {
        r.status == 404 && r.header("Content-Type")?.hasPrefix("text/html") == true && r.text.contains("<h2>404 - File or directory not found.</h2>")
    }

    @Test("a missing or unknown policy gets B2C's HTML 404 page on every endpoint, and the request log says why",
          arguments: MockIdentityProviderMode.allCases)
    func unknownPolicies(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: .value(try Self.configuration()), mode: mode) { idp in
            for path in ["/\(Self.domain)/B2C_1_nope/v2.0/.well-known/openid-configuration", "/tfp/\(Self.domain)/B2C_1_nope/discovery/v2.0/keys",
                         "/\(Self.domain)/v2.0/.well-known/openid-configuration", "/\(Self.domain)/discovery/v2.0/keys",
                         "/\(Self.domain)/v2.0/.well-known/openid-configuration?p=nope",
                         // B2C has no tenant-wide v1 documents.
                         "/\(Self.domain)/.well-known/openid-configuration"] {
                let r = try await idp.get(path)
                #expect(Self.isNotFoundPage(r), "\(path): \(r.status) \(r.text.prefix(200))")
            }
            // The token endpoint in every form, without a policy, and B2C's absent device code endpoint.
            for path in ["/te/\(Self.domain)/B2C_1_nope/oauth2/v2.0/token", "/\(Self.domain)/oauth2/v2.0/token",
                         "/\(Self.domain)/oauth2/v2.0/token?p=B2C_1_nope", "/\(Self.domain)/oauth2/v2.0/devicecode"] {
                let r = try await idp.postForm(path, [("grant_type", "authorization_code"), ("code", "x"), ("client_id", Self.mobile)])
                #expect(Self.isNotFoundPage(r), "\(path): \(r.status) \(r.text.prefix(200))")
            }
            // Authorize (path, ?p=, none) and logout: the page, never a redirect to the app.
            for url in [Self.authorizeURL(idp, policy: "B2C_1_nope"), Self.authorizeURL(idp, policy: "B2C_1_nope", queryForm: true),
                        "\(idp.baseURL)/\(Self.domain)/oauth2/v2.0/authorize?client_id=\(Self.mobile)&response_type=code&scope=openid",
                        "\(idp.baseURL)/\(Self.domain)/B2C_1_nope/oauth2/v2.0/logout"] {
                let page = try await Browser(idp).send("GET", url)
                #expect(page.status == 404 && page.header("Location") == nil && page.text.contains("404 - File or directory not found."), "\(url)")
            }
            let log = try await idp.get("/_mockidp/requests").json["requests"]?.arrayValue ?? []
            #expect(log.last?["status"] == 404 && log.last?["reason"]?.stringValue?.contains("no policy (user flow) named 'B2C_1_nope'") == true)
            // A policy on a tenant that is not B2C.
            let entra = try await idp.get("/common/\(Self.susi)/v2.0/.well-known/openid-configuration")
            #expect(entra.status == 400 && entra.json["error_codes"] == [90002])
        }
    }

    @Test("a code redeemed for openid alone gets B2C's shape: no access token, no expires_in or expires_on, profile_info",
          arguments: MockIdentityProviderMode.allCases)
    func openIDOnlyShape(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: .value(try Self.configuration()), mode: mode) { idp in
            let browser = Browser(idp)
            let url = Self.authorizeURL(idp, scope: "openid").replacingOccurrences(of: "&client_info=1", with: "")
            let code = try #require(try await Self.signIn(idp, browser, url: url)["code"])
            let reply = try await idp.postForm("/\(Self.domain)/\(Self.susi)/oauth2/v2.0/token",
                                               [("grant_type", "authorization_code"), ("client_id", Self.mobile), ("code", code),
                                                ("redirect_uri", "http://localhost"), ("code_verifier", Self.verifier), ("scope", "openid")])
            #expect(reply.status == 200, "\(reply.text)")
            #expect(reply.json.objectValue.map { Array($0.keys) }
                    == ["id_token", "token_type", "not_before", "id_token_expires_in", "profile_info", "scope"])
            #expect(reply.json["scope"] == "openid" && reply.json["token_type"] == "Bearer" && reply.json["id_token_expires_in"] == 3600)
            let info = Base64URL.decode(reply.json["profile_info"]?.stringValue ?? "").flatMap { try? JSONValue.parse($0) }
            #expect(info == ["ver": "1.0", "tid": .string(Self.tenantID), "sub": .null, "name": "Frank Fischer",
                             "preferred_username": .null, "idp": "LocalAccount"])
            #expect(Self.claims(reply.json["id_token"]?.stringValue)["tid"] == nil)
        }
    }

    @Test("a custom policy's tokens carry tid; a user flow's do not", arguments: MockIdentityProviderMode.allCases)
    func customPolicyTenantID(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: .value(try Self.configuration()), mode: mode) { idp in
            let cases: [(String, JSONValue?)] = [("B2C_1A_signup_signin", .string(Self.tenantID)), (Self.susi, nil)]
            for (policy, tid) in cases {
                let code = try #require(try await Self.signIn(idp, Browser(idp), url: Self.authorizeURL(idp, policy: policy))["code"])
                let reply = try await Self.redeem(idp, code: code, policy: policy)
                #expect(Self.claims(reply.json["id_token"]?.stringValue)["tid"] == tid, "\(policy)")
                #expect(Self.claims(reply.json["access_token"]?.stringValue)["tid"] == tid, "\(policy)")
                // MSAL's client_info=1 gets client_info in place of profile_info.
                #expect(reply.json["client_info"] != nil && reply.json["profile_info"] == nil)
            }
        }
    }

    @Test("authorize errors use B2C's codes", arguments: MockIdentityProviderMode.allCases)
    func authorizeErrors(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: .value(try Self.configuration()), mode: mode) { idp in
            let base = "\(idp.baseURL)/\(Self.domain)/\(Self.susi)/oauth2/v2.0/authorize"
            let pages: [(String, String)] = [
                ("?response_type=code&scope=openid", "AADB2C90008"),
                ("?client_id=\(Self.mobile)&redirect_uri=https://evil.example&response_type=code&scope=openid", "AADB2C90006"),
                ("?client_id=0a0b0c0d-0000-4000-8000-000000000000&response_type=code&scope=openid", "AADB2C90018"),
            ]
            for (query, code) in pages {
                let r = try await Browser(idp).send("GET", base + query)
                #expect(r.status == 400 && r.text.contains(code), "\(query)")
            }
            let redirects: [(String, [(String, String)], String)] = [
                (Self.mobile, [("scope", "openid User.Read")], "AADB2C90055"),
                (Self.mobile, [("scope", "openid api://fabrikamb2c-api/delete")], "AADB2C90117"),
                (Self.mobile, [("response_type", "code token")], "AADB2C90013"),
                (Self.mobile, [("response_type", "id_token")], "AADB2C90057"),
                (Self.mobile, [("response_mode", "smoke_signal")], "AADB2C90014"),
                (Self.mobile, [("prompt", "sometimes")], "AADB2C90043"),
                (Self.mobile, [("prompt", "none")], "AADB2C90077"),
                (Self.spa, [("code_challenge", ""), ("redirect_uri", "http://localhost:3000")], "AADB2C99059"),
            ]
            for (client, overrides, code) in redirects {
                var items: [(String, String)] = [("client_id", client), ("redirect_uri", "http://localhost"), ("response_type", "code"),
                                                 ("scope", "openid"), ("state", "st"), ("code_challenge", Self.challenge)]
                for (k, v) in overrides { items.removeAll { $0.0 == k }; if !v.isEmpty { items.append((k, v)) } }
                let url = base + "?" + items.map { "\(percentEncoded($0.0))=\(percentEncoded($0.1))" }.joined(separator: "&")
                let r = try await Browser(idp).send("GET", url)
                let q = Self.query(r.header("Location"))
                #expect(r.status == 302 && q["error_description"]?.hasPrefix(code + ": ") == true, "\(code): \(r.status) \(q) \(r.text.prefix(200))")
                #expect(q["state"] == "st", "\(code)")
            }
        }
    }

    @Test("token errors use B2C's codes and B2C's JSON shape", arguments: MockIdentityProviderMode.allCases)
    func tokenErrors(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: .value(try Self.configuration()), mode: mode) { idp in
            func freshCode(_ client: String = Self.mobile, redirect: String = "http://localhost") async throws -> String {
                let url = Self.authorizeURL(idp, clientID: client, redirectURI: redirect)
                return try #require(await Self.signIn(idp, Browser(idp), url: url)["code"])
            }
            let code = try await freshCode()
            let other = try await Self.redeem(idp, code: code, policy: "B2C_1_profileedit")
            #expect(Self.b2cCode(other) == "AADB2C90088")
            let pkce = try await idp.postForm("/\(Self.domain)/\(Self.susi)/oauth2/v2.0/token",
                                              [("grant_type", "authorization_code"), ("client_id", Self.mobile), ("code", code),
                                               ("redirect_uri", "http://localhost"), ("code_verifier", String(repeating: "b", count: 43))])
            #expect(Self.b2cCode(pkce) == "AADB2C90182")
            let ok = try await Self.redeem(idp, code: code)
            #expect(ok.status == 200)
            let twice = try await Self.redeem(idp, code: code)
            #expect(twice.status == 400 && twice.json["error"] == "invalid_grant" && Self.b2cCode(twice) == "AADB2C90129")
            #expect(twice.json["error_description"]?.stringValue?.contains("\r\nCorrelation ID: ") == true && twice.json["trace_id"] == nil)
            let garbage = try await Self.redeem(idp, code: "not-a-code")
            #expect(Self.b2cCode(garbage) == "AADB2C90085")
            let grant = try await idp.postForm("/\(Self.domain)/\(Self.susi)/oauth2/v2.0/token",
                                               [("grant_type", "password"), ("client_id", Self.mobile)])
            #expect(grant.json["error"] == "unsupported_grant_type" && Self.b2cCode(grant) == "AADB2C90086")
            let publicSecret = try await Self.redeem(idp, code: try await freshCode(), extra: [("client_id", Self.mobile), ("client_secret", "x")])
            #expect(publicSecret.status == 401 && Self.b2cCode(publicSecret) == "AADB2C90084")
            let webCode = try await freshCode(Self.web, redirect: "http://localhost:5000/signin-oidc")
            let webRedeem: ([(String, String)]) async throws -> MockIDPResponse = { extra in
                try await idp.postForm("/\(Self.domain)/\(Self.susi)/oauth2/v2.0/token",
                                       [("grant_type", "authorization_code"), ("client_id", Self.web), ("code", webCode),
                                        ("redirect_uri", "http://localhost:5000/signin-oidc"), ("code_verifier", Self.verifier),
                                        ("scope", "openid")] + extra)
            }
            #expect(Self.b2cCode(try await webRedeem([])) == "AADB2C90079")
            #expect(Self.b2cCode(try await webRedeem([("client_secret", "wrong")])) == "AADB2C90081")
            let webOK = try await webRedeem([("client_secret", "fabrikam-web-secret")])
            #expect(webOK.status == 200 && webOK.json["access_token"] == nil && webOK.json["id_token"] != nil)
            // An Entra tenant's code is not taken by a B2C policy, nor the reverse.
            let noParameter = try await idp.postForm("/\(Self.domain)/\(Self.susi)/oauth2/v2.0/token", [("client_id", Self.mobile)])
            #expect(Self.b2cCode(noParameter) == "AADB2C90083")
        }
    }

    @Test("an app with headlessSignIn gets the login_hint user's code without a page",
          arguments: MockIdentityProviderMode.allCases)
    func headlessSignIn(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: .value(try Self.configuration()), mode: mode) { idp in
            let provider = idp.server.provider
            var app = try #require(provider.snapshot().configuration.tenants.first?.apps.first { $0.clientID == Self.mobile })
            app.headlessSignIn = true
            provider.served.upsertApp(app, tenant: Self.tenantID)
            let r = try await Browser(idp).send("GET", Self.authorizeURL(idp, extra: [("login_hint", "frank@example.com")]))
            let code = try #require(Self.query(r.header("Location"))["code"], "\(r.status) \(r.text.prefix(200))")
            #expect(Self.claims(try await Self.redeem(idp, code: code).json["id_token"]?.stringValue)["oid"] == .string(Self.frankOID))
        }
    }

    @Test("profile edit signs in, shows the form and issues tokens with the new name; logout ends the session",
          arguments: MockIdentityProviderMode.allCases)
    func profileEditAndLogout(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: .value(try Self.configuration()), mode: mode) { idp in
            let browser = Browser(idp)
            let page = try await browser.send("GET", Self.authorizeURL(idp, policy: "B2C_1_profileedit"))
            #expect(!page.text.contains("Sign up now") && !page.text.contains("Edit your profile"))
            let form = try await browser.submit(page, action: "signin",
                                                [("username", "frank@example.com"), ("password", "Frank-Passw0rd")])
            #expect(form.text.contains("Edit your profile") && form.text.contains("value=\"Frank Fischer\""))
            let done = try await browser.submit(form, action: "profile",
                                                [("displayName", "Frank F."), ("givenName", "Frankie"), ("surname", "F.")])
            let code = try #require(Self.query(done.header("Location"))["code"])
            let id = Self.claims(try await Self.redeem(idp, code: code, policy: "B2C_1_profileedit").json["id_token"]?.stringValue)
            #expect(id["name"] == "Frank F." && id["given_name"] == "Frankie" && id["tfp"] == "B2C_1_profileedit")
            // Single sign-on at the sign-up/sign-in policy, until logout.
            let sso = try await browser.send("GET", Self.authorizeURL(idp))
            #expect(sso.status == 302 && Self.query(sso.header("Location"))["code"] != nil)
            let logout = try await browser.send("GET", "\(idp.baseURL)/\(Self.domain)/\(Self.susi)/oauth2/v2.0/logout?post_logout_redirect_uri=http://localhost")
            #expect(logout.status == 302 && logout.header("Location") == "http://localhost")
            let after = try await browser.send("GET", Self.authorizeURL(idp))
            #expect(after.status == 200)
        }
    }

    @Test("the ROPC policy gives B2C tokens for a password grant in the path and tfp forms, and its refresh tokens work",
          arguments: MockIdentityProviderMode.allCases)
    func ropcTokens(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: .value(try Self.configuration()), mode: mode) { idp in
            for prefix in ["", "/tfp"] {
                let r = try await Self.ropcGrant(idp, prefix: prefix, extra: [("client_info", "1")])
                #expect(r.status == 200, "\(r.text)")
                let id = Self.claims(r.json["id_token"]?.stringValue), access = Self.claims(r.json["access_token"]?.stringValue)
                #expect(id["tfp"] == .string(Self.ropc) && access["tfp"] == .string(Self.ropc))
                #expect(id["sub"] == .string(Self.frankOID) && id["aud"] == .string(Self.ropcApp) && id["ver"] == "1.0")
                #expect(id["iss"] == .string("\(idp.baseURL)/\(Self.tenantID)/v2.0/"))
                #expect(id["newUser"] == nil && id["nonce"] == nil && id["emails"] == ["frank@example.com"])
                #expect(access["aud"] == .string(Self.ropcApp) && access["azp"] == .string(Self.ropcApp))
                #expect(r.json["resource"] == .string(Self.ropcApp) && r.json["refresh_token_expires_in"] != nil)
                let refresh = try #require(r.json["refresh_token"]?.stringValue)
                let renewed = try await idp.postForm("\(prefix)/\(Self.domain)/\(Self.ropc)/oauth2/v2.0/token",
                                                     [("grant_type", "refresh_token"), ("client_id", Self.ropcApp), ("refresh_token", refresh),
                                                      ("response_type", "id_token")])
                #expect(renewed.status == 200, "\(renewed.text)")
                #expect(Self.claims(renewed.json["id_token"]?.stringValue)["tfp"] == .string(Self.ropc))
                #expect(Self.claims(renewed.json["access_token"]?.stringValue)["oid"] == .string(Self.frankOID))
            }
            let acr = try await Self.ropcGrant(idp, policy: "b2c_1_ropc_auth")
            #expect(acr.status == 200 && Self.claims(acr.json["id_token"]?.stringValue)["tfp"] == .string(Self.ropc))
        }
    }

    @Test("the ROPC policy answers a wrong password, an unknown user and unfit clients with B2C's codes, and has no pages",
          arguments: MockIdentityProviderMode.allCases)
    func ropcErrors(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: .value(try Self.configuration()), mode: mode) { idp in
            let wrong = try await Self.ropcGrant(idp, password: "Not-The-Passw0rd")
            #expect(wrong.status == 400 && wrong.json["error"] == "access_denied" && Self.b2cCode(wrong) == "AADB2C90225", "\(wrong.text)")
            #expect(wrong.json["error_description"]?.stringValue?.contains("The username or password provided in the request are invalid.\r\nCorrelation ID: ") == true)
            #expect(wrong.json["access_token"] == nil && wrong.json["error_codes"] == nil)
            let unknown = try await Self.ropcGrant(idp, username: "nobody@example.com")
            #expect(unknown.status == 400 && Self.b2cCode(unknown) == "AADB2C90225")
            let confidential = try await Self.ropcGrant(idp, clientID: Self.web, extra: [("client_secret", "fabrikam-web-secret")])
            #expect(Self.b2cCode(confidential) == "AADB2C90224", "\(confidential.text)")
            let noImplicit = try await Self.ropcGrant(idp, clientID: Self.mobile)
            #expect(Self.b2cCode(noImplicit) == "AADB2C90057", "\(noImplicit.text)")
            let secret = try await Self.ropcGrant(idp, extra: [("client_secret", "x")])
            #expect(Self.b2cCode(secret) == "AADB2C90084")
            let noPassword = try await idp.postForm("/\(Self.domain)/\(Self.ropc)/oauth2/v2.0/token",
                                                    [("grant_type", "password"), ("username", "frank@example.com"), ("client_id", Self.ropcApp)])
            #expect(Self.b2cCode(noPassword) == "AADB2C90083")
            let noScope = try await idp.postForm("/\(Self.domain)/\(Self.ropc)/oauth2/v2.0/token",
                                                 [("grant_type", "password"), ("username", "frank@example.com"), ("password", "Frank-Passw0rd"),
                                                  ("client_id", Self.ropcApp)])
            #expect(Self.b2cCode(noScope) == "AADB2C90010")
            // Other policies keep refusing the password grant.
            let susi = try await Self.ropcGrant(idp, policy: Self.susi)
            #expect(susi.json["error"] == "unsupported_grant_type" && Self.b2cCode(susi) == "AADB2C90086")
            // No pages: a valid client and redirect URI get the error at the app, others the error page.
            let page = try await Browser(idp).send("GET", Self.authorizeURL(idp, policy: Self.ropc, clientID: Self.ropcApp))
            let q = Self.query(page.header("Location"))
            #expect(page.status == 302 && q["error"] == "invalid_request" && q["state"] == "st", "\(page.status) \(q)")
            #expect(q["error_description"]?.hasPrefix("AADB2C90226: ") == true, "\(q)")
            let unknownClient = try await Browser(idp).send("GET", Self.authorizeURL(idp, policy: Self.ropc, clientID: "0a0b0c0d-0000-4000-8000-000000000000"))
            #expect(unknownClient.status == 400 && unknownClient.text.contains("AADB2C90018"))
        }
    }

    @Test("a fault on a B2C authorize goes to the app in B2C's form when client and redirect check out, else to the error page",
          arguments: MockIdentityProviderMode.allCases)
    func authorizeFault(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: .value(try Self.configuration()), mode: mode) { idp in
            _ = try await idp.injectFault(MockFault(endpoint: "authorize", count: 3, error: "access_denied",
                                                    extra: ["b2cCode": "AADB2C90118", "message": "The user has forgotten their password."]))
            for url in [Self.authorizeURL(idp), Self.authorizeURL(idp, queryForm: true)] {
                let r = try await Browser(idp).send("GET", url)
                let q = Self.query(r.header("Location"))
                #expect(r.status == 302 && r.header("Location")?.hasPrefix("http://localhost") == true, "\(r.status) \(r.text.prefix(200))")
                #expect(q["error"] == "access_denied" && q["state"] == "st" && q["trace_id"] == nil, "\(q)")
                let description = q["error_description"] ?? ""
                #expect(description.hasPrefix("AADB2C90118: The user has forgotten their password.\r\nCorrelation ID: "), "\(description)")
            }
            let unknownClient = try await Browser(idp).send("GET", Self.authorizeURL(idp, clientID: "0a0b0c0d-0000-4000-8000-000000000000"))
            #expect(unknownClient.status == 400 && unknownClient.text.contains("AADB2C90118"))
            // An AADSTS code B2C has its own code for is sent as B2C's.
            _ = try await idp.injectFault(MockFault(endpoint: "authorize", aadsts: 50058))
            let noSession = Self.query(try await Browser(idp).send("GET", Self.authorizeURL(idp)).header("Location"))
            #expect(noSession["error_description"]?.hasPrefix("AADB2C90077: ") == true, "\(noSession)")
            #expect(noSession["error"] == "interaction_required", "\(noSession)")
            // The faults are spent: the sign-in page again.
            #expect(try await Browser(idp).send("GET", Self.authorizeURL(idp)).status == 200)
        }
    }

    @Test("a fault at a B2C token endpoint answers in B2C's JSON, without AADSTS fields",
          arguments: MockIdentityProviderMode.allCases)
    func tokenFault(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: .value(try Self.configuration()), mode: mode) { idp in
            _ = try await idp.injectFault(MockFault(endpoint: "token", status: 503))
            let r = try await Self.ropcGrant(idp)
            #expect(r.status == 503 && r.json["error"] == "temporarily_unavailable" && r.header("Retry-After") == "1")
            #expect(r.json["error_codes"] == nil && r.json["trace_id"] == nil)
            #expect(r.json["error_description"]?.stringValue?.hasPrefix("A fault was injected for this request (POST /_mockidp/faults).\r\nCorrelation ID: ") == true,
                    "\(r.text)")
            #expect(try await Self.ropcGrant(idp).status == 200)
        }
    }

    @Test("extra claims from the control API reach B2C tokens of the token endpoint, as many times as asked",
          arguments: MockIdentityProviderMode.allCases)
    func extraClaims(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(configuration: .value(try Self.configuration()), mode: mode) { idp in
            _ = try await idp.extraClaims(["ctry": "NZ", "tfp": "B2C_1_other"], clientID: Self.ropcApp, username: "frank@example.com")
            let r = try await Self.ropcGrant(idp)
            for token in ["id_token", "access_token"] {
                let c = Self.claims(r.json[token]?.stringValue)
                #expect(c["ctry"] == "NZ" && c["tfp"] == "B2C_1_other", "\(token): \(c)")
            }
            let next = try await Self.ropcGrant(idp)
            #expect(Self.claims(next.json["id_token"]?.stringValue)["ctry"] == nil)
            // The code flow's tokens too.
            _ = try await idp.extraClaims(["ctry": "NZ"], clientID: Self.mobile)
            let code = try #require(await Self.signIn(idp, Browser(idp), url: Self.authorizeURL(idp))["code"])
            let redeemed = try await Self.redeem(idp, code: code)
            #expect(Self.claims(redeemed.json["id_token"]?.stringValue)["ctry"] == "NZ", "\(redeemed.text)")
        }
    }
}
