@testable import MockIDPCore
import MockIDPJOSE
import Testing

/// External ID's native authentication API as a state machine, called as the edge calls it, with a fixed clock:
/// every flow, every transition and every error, and continuation tokens replayed, expired and presented where they
/// do not belong.
@Suite struct NativeAuthTests {
    static let tenantID = "5e1b2c3d-4f5a-4b6c-8d7e-9f0a1b2c3d4e"
    static let otpTenantID = "6f2c3d4e-5a6b-4c7d-9e8f-0a1b2c3d4e5f"
    static let native = "8a9b0c1d-2e3f-4a5b-8c6d-7e8f9a0b1c2d"
    static let otherNative = "9b0c1d2e-3f4a-4b5c-9d7e-8f9a0b1c2d3e"
    static let plain = "0c1d2e3f-4a5b-4c6d-8e8f-9a0b1c2d3e4f"
    static let confidential = "1d2e3f4a-5b6c-4d7e-9f9a-0b1c2d3e4f5a"
    static let danaOID = "2e3f4a5b-6c7d-4e8f-8a0b-1c2d3e4f5a6b"

    static func nativeApp(_ id: String) -> Application {
        var app = Application(clientID: id, type: .public, redirectURIs: ["msauth.com.contoso.app://auth"])
        app.nativeAuth = true
        return app
    }

    static let configuration: IdentityProviderConfiguration = {
        var confidentialApp = nativeApp(confidential)
        confidentialApp.type = .confidential
        confidentialApp.secret = "s3cret"
        let apps = [nativeApp(native), nativeApp(otherNative), Application(clientID: plain, type: .public), confidentialApp]
        return IdentityProviderConfiguration(
            tokens: TokenSettings(lifetime: 3600, refreshLifetime: 7200, codeLifetime: 300),
            tenants: [
                Tenant(id: tenantID, domains: ["contosocustomers.onmicrosoft.com"], name: "Contoso Customers",
                       users: [
                           User(username: "dana@contosocustomers.onmicrosoft.com", password: "Dana-passw0rd", name: "Dana",
                                objectID: danaOID, email: "dana@example.com"),
                           User(username: "erin@example.com", password: "Erin-passw0rd", objectID: User.derivedObjectID(tenantID: tenantID, username: "erin@example.com"),
                                email: "erin@example.com", requireMFA: true),
                       ],
                       apps: apps,
                       externalID: ExternalIDSettings(subdomain: "contosocustomers", attributes: ["displayName", "city"])),
                Tenant(id: otpTenantID, domains: ["fabrikamcustomers.onmicrosoft.com"], name: "Fabrikam Customers",
                       users: [User(username: "finn@example.com", password: "unused-Passw0rd", objectID: User.derivedObjectID(tenantID: otpTenantID, username: "finn@example.com"),
                                    email: "finn@example.com")],
                       apps: [nativeApp(native)],
                       externalID: ExternalIDSettings(subdomain: "fabrikamcustomers", signIn: .otp, signUp: false)),
            ] + Fixtures.configuration.tenants)
    }()

    let clock = ProviderClock.fixed(Fixtures.now)

    func provider() -> IdentityProvider {
        IdentityProvider(configuration: Self.configuration, signingKeys: [Fixtures.signingKey], clock: clock)
    }

    func call(_ p: IdentityProvider, _ c: NativeAuthCall, tenant: String = tenantID, client: String? = native,
              _ parameters: [(String, String)]) -> Result<JSONValue, OAuthError> {
        let all = (client.map { [("client_id", $0)] } ?? []) + parameters
        return p.nativeAuth.answer(c, tenant: tenant, parameters: all.map { (name: $0.0, value: $0.1) }, scope: p.testScope(tenant: tenant))
    }

    func token(_ p: IdentityProvider, tenant: String = tenantID, client: String = native, _ parameters: [(String, String)]) -> Result<TokenResponse, OAuthError> {
        p.token(TokenRequest(tenant: tenant, parameters: ([("client_id", client), ("scope", "openid offline_access"), ("client_info", "true")]
                                                           + parameters).map { (name: $0.0, value: $0.1) }))
    }

    func continuation(_ r: Result<JSONValue, OAuthError>, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        guard case .success(let body) = r else { Issue.record("expected success, got \(r)", sourceLocation: sourceLocation); throw OAuthError.invalidPassword() }
        return try #require(body["continuation_token"]?.stringValue, sourceLocation: sourceLocation)
    }

    func error(_ r: Result<JSONValue, OAuthError>) -> OAuthError? { if case .failure(let e) = r { e } else { nil } }
    func body(_ r: Result<JSONValue, OAuthError>) -> JSONValue? { if case .success(let b) = r { b } else { nil } }

    /// initiate → challenge (password): the token for the token endpoint's password step.
    func passwordStep(_ p: IdentityProvider, _ username: String = "dana@example.com", capabilities: String? = nil) throws -> String {
        var parameters = [("username", username), ("challenge_type", "oob password redirect")]
        if let capabilities { parameters.append(("capabilities", capabilities)) }
        let initiated = try continuation(call(p, .signInInitiate, parameters))
        let challenged = call(p, .signInChallenge, [("continuation_token", initiated), ("challenge_type", "oob password redirect")])
        #expect(body(challenged)?["challenge_type"] == "password")
        return try continuation(challenged)
    }

    @Test("sign-in with a password: initiate, challenge, token; the tokens are a browser sign-in's and refresh works")
    func signInWithPassword() throws {
        let p = provider()
        let step = try passwordStep(p)
        let tokens = try #require(token(p, [("grant_type", "password"), ("continuation_token", step), ("password", "Dana-passw0rd"),
                                            ("username", "dana@example.com")]).body)
        let id = Fixtures.claims(tokens["id_token"]?.stringValue)
        #expect(id["oid"] == .string(Self.danaOID) && id["tid"] == .string(Self.tenantID) && id["aud"] == .string(Self.native))
        #expect(tokens["client_info"] != nil && tokens["refresh_token"] != nil && tokens["access_token"] != nil)
        let refreshed = token(p, [("grant_type", "refresh_token"), ("refresh_token", tokens["refresh_token"]?.stringValue ?? "")])
        #expect(refreshed.body?["access_token"] != nil)
        // Spent: the same token again is refused.
        let replay = token(p, [("grant_type", "password"), ("continuation_token", step), ("password", "Dana-passw0rd")])
        #expect(replay.error?.code == .invalidGrant && replay.error?.aadsts == 55200)
    }

    @Test("a wrong password is AADSTS50126 and leaves the step open for another try")
    func wrongPassword() throws {
        let p = provider()
        let step = try passwordStep(p)
        let wrong = token(p, [("grant_type", "password"), ("continuation_token", step), ("password", "nope")])
        #expect(wrong.error?.code == .invalidGrant && wrong.error?.aadsts == 50126)
        #expect(token(p, [("grant_type", "password"), ("continuation_token", step), ("password", "Dana-passw0rd")]).body?["id_token"] != nil)
    }

    @Test("the password grant without a continuation token is still refused as ROPC")
    func ropcRefused() {
        let p = provider()
        let r = token(p, [("grant_type", "password"), ("username", "dana@example.com"), ("password", "Dana-passw0rd")])
        #expect(r.error?.code == .unsupportedGrantType && r.error?.aadsts == 70003)
    }

    @Test("initiate refuses unknown users, malformed names, lists without redirect, unknown types and repeated parameters")
    func initiateErrors() {
        let p = provider()
        let unknown = error(call(p, .signInInitiate, [("username", "nobody@example.com"), ("challenge_type", "password redirect")]))
        #expect(unknown?.code == .userNotFound && unknown?.aadsts == 50034)
        let malformed = error(call(p, .signInInitiate, [("username", "not-an-email"), ("challenge_type", "password redirect")]))
        #expect(malformed?.code == .invalidRequest && malformed?.aadsts == 90100)
        let noRedirect = error(call(p, .signInInitiate, [("username", "dana@example.com"), ("challenge_type", "password oob")]))
        #expect(noRedirect?.code == .invalidRequest && noRedirect?.aadsts == 901007)
        let odd = error(call(p, .signInInitiate, [("username", "dana@example.com"), ("challenge_type", "sms redirect")]))
        #expect(odd?.code == .unsupportedChallengeType)
        let missing = error(call(p, .signInInitiate, [("username", "dana@example.com")]))
        #expect(missing?.code == .invalidRequest && missing?.aadsts == 900144)
        let twice = error(call(p, .signInInitiate, [("username", "dana@example.com"), ("username", "x@example.com"), ("challenge_type", "password redirect")]))
        #expect(twice?.code == .invalidRequest && twice?.aadsts == 9000411)
        // A client that cannot take the tenant's method goes to the browser.
        #expect(body(call(p, .signInInitiate, [("username", "dana@example.com"), ("challenge_type", "oob redirect")])) == ["challenge_type": "redirect"])
    }

    @Test("clients: missing or not a GUID is invalid_request, unknown unauthorized_client, not enabled or confidential invalid_client 401")
    func clients() {
        let p = provider()
        let parameters = [("username", "dana@example.com"), ("challenge_type", "password redirect")]
        #expect(error(call(p, .signInInitiate, client: nil, parameters))?.aadsts == 90100)
        #expect(error(call(p, .signInInitiate, client: "mobile-app", parameters))?.aadsts == 90100)
        let unknown = error(call(p, .signInInitiate, client: "00000000-0000-4000-8000-000000000000", parameters))
        #expect(unknown?.code == .unauthorizedClient && unknown?.aadsts == 700016)
        for client in [Self.plain, Self.confidential] {
            let disabled = error(call(p, .signInInitiate, client: client, parameters))
            #expect(disabled?.code == .invalidClient && disabled?.status == 401 && disabled?.suberror == .nativeAuthAPIDisabled)
        }
        let workforce = error(call(p, .signInInitiate, tenant: Fixtures.contosoID, client: Fixtures.mobile, parameters))
        #expect(workforce?.code == .invalidClient && workforce?.suberror == .nativeAuthAPIDisabled)
    }

    @Test("a continuation token is refused when expired, spent, another client's, another flow's or another step's")
    func continuationTokens() throws {
        let p = provider()
        let initiated = try continuation(call(p, .signInInitiate, [("username", "dana@example.com"), ("challenge_type", "password redirect")]))
        // Another client.
        let foreign = error(call(p, .signInChallenge, client: Self.otherNative, [("continuation_token", initiated), ("challenge_type", "password redirect")]))
        #expect(foreign?.code == .invalidGrant && foreign?.aadsts == 55200)
        // Another step: the token endpoint does not take an initiate token.
        #expect(token(p, [("grant_type", "password"), ("continuation_token", initiated), ("password", "Dana-passw0rd")]).error?.code == .invalidGrant)
        // Another flow: sign-up's challenge does not take a sign-in token.
        #expect(error(call(p, .signUpChallenge, [("continuation_token", initiated), ("challenge_type", "oob password redirect")]))?.code == .invalidGrant)
        // Another tenant.
        #expect(error(call(p, .signInChallenge, tenant: Self.otpTenantID, [("continuation_token", initiated), ("challenge_type", "oob redirect")]))?.code == .invalidGrant)
        // Unknown.
        #expect(error(call(p, .signInChallenge, [("continuation_token", "AAAA"), ("challenge_type", "password redirect")]))?.code == .invalidGrant)
        // Spent.
        _ = try continuation(call(p, .signInChallenge, [("continuation_token", initiated), ("challenge_type", "password redirect")]))
        #expect(error(call(p, .signInChallenge, [("continuation_token", initiated), ("challenge_type", "password redirect")]))?.code == .invalidGrant)
        // Expired: ten minutes.
        let fresh = try continuation(call(p, .signInInitiate, [("username", "dana@example.com"), ("challenge_type", "password redirect")]))
        clock.advance(by: 601)
        let expired = error(call(p, .signInChallenge, [("continuation_token", fresh), ("challenge_type", "password redirect")]))
        #expect(expired?.code == .expiredToken && expired?.aadsts == 552003)
    }

    @Test("sign-in with a one-time passcode: the code goes to the outbox; a wrong one is invalid_oob_value; a used one is refused")
    func signInWithCode() throws {
        let p = provider()
        let initiated = try continuation(call(p, .signInInitiate, tenant: Self.otpTenantID, [("username", "finn@example.com"), ("challenge_type", "oob redirect")]))
        let challenged = call(p, .signInChallenge, tenant: Self.otpTenantID, [("continuation_token", initiated), ("challenge_type", "oob redirect")])
        #expect(body(challenged)?["challenge_type"] == "oob" && body(challenged)?["code_length"] == 8
                && body(challenged)?["binding_method"] == "prompt" && body(challenged)?["challenge_channel"] == "email")
        #expect(body(challenged)?["challenge_target_label"] == "f***n@ex**.com")
        let step = try continuation(challenged)
        let message = try #require(p.outbox.all.last)
        #expect(message.to == "finn@example.com" && message.purpose == .signIn && message.code.count == 8 && message.code.allSatisfy(\.isNumber))
        let wrong = token(p, tenant: Self.otpTenantID, [("grant_type", "oob"), ("continuation_token", step), ("oob", "00000000" == message.code ? "11111111" : "00000000")])
        #expect(wrong.error?.code == .invalidGrant && wrong.error?.suberror == .invalidOOBValue)
        let tokens = token(p, tenant: Self.otpTenantID, [("grant_type", "oob"), ("continuation_token", step), ("oob", message.code)])
        #expect(Fixtures.claims(tokens.body?["id_token"]?.stringValue)["tid"] == .string(Self.otpTenantID))
        #expect(token(p, tenant: Self.otpTenantID, [("grant_type", "oob"), ("continuation_token", step), ("oob", message.code)]).error?.code == .invalidGrant)
    }

    @Test("a resent code replaces the one before")
    func resend() throws {
        let p = provider()
        let initiated = try continuation(call(p, .signInInitiate, tenant: Self.otpTenantID, [("username", "finn@example.com"), ("challenge_type", "oob redirect")]))
        let first = try continuation(call(p, .signInChallenge, tenant: Self.otpTenantID, [("continuation_token", initiated), ("challenge_type", "oob redirect")]))
        let firstCode = try #require(p.outbox.all.last?.code)
        let second = try continuation(call(p, .signInChallenge, tenant: Self.otpTenantID, [("continuation_token", first), ("challenge_type", "oob redirect")]))
        let secondCode = try #require(p.outbox.all.last?.code)
        if firstCode != secondCode {
            #expect(token(p, tenant: Self.otpTenantID, [("grant_type", "oob"), ("continuation_token", second), ("oob", firstCode)]).error?.suberror == .invalidOOBValue)
        }
        #expect(token(p, tenant: Self.otpTenantID, [("grant_type", "oob"), ("continuation_token", second), ("oob", secondCode)]).body?["access_token"] != nil)
    }

    @Test("sign-up: code, then attributes asked again until valid, then the new user signs in at once with a fresh oid")
    func signUp() throws {
        let p = provider()
        let started = try continuation(call(p, .signUpStart, [("username", "gail@example.com"), ("password", "Gail-passw0rd"),
                                                              ("challenge_type", "oob password redirect"), ("attributes", #"{"city":"Oslo","shoeSize":"42"}"#)]))
        let codeStep = try continuation(call(p, .signUpChallenge, [("continuation_token", started), ("challenge_type", "oob password redirect")]))
        let code = try #require(p.outbox.all.last)
        #expect(code.purpose == .signUp && code.to == "gail@example.com")
        #expect(error(call(p, .signUpContinue, [("continuation_token", codeStep), ("grant_type", "oob"), ("oob", "x")]))?.suberror == .invalidOOBValue)
        let needs = try #require(error(call(p, .signUpContinue, [("continuation_token", codeStep), ("grant_type", "oob"), ("oob", code.code)])))
        #expect(needs.code == .attributesRequired && needs.aadsts == 55106)
        #expect(needs.nativeAuth?.requiredAttributes.map(\.name) == ["displayName"])
        let attributesStep = try #require(needs.nativeAuth?.continuationToken)
        let bad = try #require(error(call(p, .signUpContinue, [("continuation_token", attributesStep), ("grant_type", "attributes"), ("attributes", #"{"displayName":"  "}"#)])))
        #expect(bad.code == .invalidGrant && bad.suberror == .attributeValidationFailed && bad.nativeAuth?.invalidAttributes == ["displayName"])
        let notJSON = error(call(p, .signUpContinue, [("continuation_token", attributesStep), ("grant_type", "attributes"), ("attributes", "[1]")]))
        #expect(notJSON?.code == .invalidRequest)
        let done = try continuation(call(p, .signUpContinue, [("continuation_token", attributesStep), ("grant_type", "attributes"), ("attributes", #"{"displayName":"Gail"}"#)]))
        let tokens = try #require(token(p, [("grant_type", "continuation_token"), ("continuation_token", done), ("username", "gail@example.com")]).body)
        let oid = try #require(Fixtures.claims(tokens["id_token"]?.stringValue)["oid"]?.stringValue)
        #expect(oid != User.derivedObjectID(tenantID: Self.tenantID, username: "gail@example.com"))
        let tenant = try #require(p.snapshot().tenant(Self.tenantID))
        let user = try #require(tenant.users.first { $0.username == "gail@example.com" })
        #expect(user.objectID == oid && user.name == "Gail" && user.profile["city"] == "Oslo" && user.profile["shoeSize"] == nil)
        // The new user signs in with the password chosen.
        let step = try passwordStep(p, "gail@example.com")
        #expect(token(p, [("grant_type", "password"), ("continuation_token", step), ("password", "Gail-passw0rd")]).body?["id_token"] != nil)
        // And cannot sign up twice.
        #expect(error(call(p, .signUpStart, [("username", "gail@example.com"), ("challenge_type", "oob password redirect")]))?.aadsts == 1003037)
    }

    @Test("sign-up without a password: credential_required, challenge asks for the password, the policy is applied")
    func signUpPasswordLater() throws {
        let p = provider()
        let started = try continuation(call(p, .signUpStart, [("username", "hal@example.com"), ("challenge_type", "oob password redirect"),
                                                              ("attributes", #"{"displayName":"Hal","city":"Rome"}"#)]))
        let codeStep = try continuation(call(p, .signUpChallenge, [("continuation_token", started), ("challenge_type", "oob password redirect")]))
        let code = try #require(p.outbox.all.last?.code)
        let needs = try #require(error(call(p, .signUpContinue, [("continuation_token", codeStep), ("grant_type", "oob"), ("oob", code)])))
        #expect(needs.code == .credentialRequired && needs.aadsts == 55103)
        let asked = call(p, .signUpChallenge, [("continuation_token", needs.nativeAuth?.continuationToken ?? ""), ("challenge_type", "oob password redirect")])
        #expect(body(asked)?["challenge_type"] == "password")
        let passwordStep = try continuation(asked)
        #expect(error(call(p, .signUpContinue, [("continuation_token", passwordStep), ("grant_type", "password"), ("password", "short")]))?.suberror == .passwordTooShort)
        #expect(error(call(p, .signUpContinue, [("continuation_token", passwordStep), ("grant_type", "password"), ("password", "alllowercase")]))?.suberror == .passwordTooWeak)
        #expect(error(call(p, .signUpContinue, [("continuation_token", passwordStep), ("grant_type", "attributes"), ("attributes", "{}")]))?.code == .invalidGrant)
        #expect(error(call(p, .signUpContinue, [("continuation_token", passwordStep), ("grant_type", "magic")]))?.code == .invalidGrant)
        let done = try continuation(call(p, .signUpContinue, [("continuation_token", passwordStep), ("grant_type", "password"), ("password", "Hal-passw0rd")]))
        #expect(token(p, [("grant_type", "continuation_token"), ("continuation_token", done), ("username", "someone@example.com")]).error?.code == .invalidGrant)
        #expect(token(p, [("grant_type", "continuation_token"), ("continuation_token", done)]).body?["access_token"] != nil)
    }

    @Test("sign-up refuses existing users, oversized or malformed attributes, tenants without sign-up, and clients without oob")
    func signUpErrors() {
        let p = provider()
        #expect(error(call(p, .signUpStart, [("username", "dana@example.com"), ("challenge_type", "oob password redirect")]))?.code == .userAlreadyExists)
        let big = #"{"city":""# + String(repeating: "x", count: 9000) + #""}"#
        #expect(error(call(p, .signUpStart, [("username", "ivy@example.com"), ("challenge_type", "oob password redirect"), ("attributes", big)]))?.code == .invalidRequest)
        let long = #"{"city":""# + String(repeating: "x", count: 300) + #""}"#
        #expect(error(call(p, .signUpStart, [("username", "ivy@example.com"), ("challenge_type", "oob password redirect"), ("attributes", long)]))?.suberror == .attributeValidationFailed)
        #expect(error(call(p, .signUpStart, [("username", "ivy@example.com"), ("challenge_type", "oob password redirect"), ("password", "weak")]))?.suberror == .passwordTooShort)
        #expect(error(call(p, .signUpStart, tenant: Self.otpTenantID, [("username", "ivy@example.com"), ("challenge_type", "oob redirect")]))?.code == .unauthorizedClient)
        #expect(body(call(p, .signUpStart, [("username", "ivy@example.com"), ("challenge_type", "oob redirect")])) == ["challenge_type": "redirect"])
    }

    @Test("password reset: code, new password, polling, then signed in; the old password no longer works")
    func resetPassword() throws {
        let p = provider()
        #expect(error(call(p, .resetPasswordStart, [("username", "nobody@example.com"), ("challenge_type", "oob redirect")]))?.code == .userNotFound)
        let started = try continuation(call(p, .resetPasswordStart, [("username", "dana@example.com"), ("challenge_type", "oob redirect")]))
        let codeStep = try continuation(call(p, .resetPasswordChallenge, [("continuation_token", started), ("challenge_type", "oob redirect")]))
        let message = try #require(p.outbox.all.last)
        #expect(message.purpose == .passwordReset && message.to == "dana@example.com")
        #expect(error(call(p, .resetPasswordContinue, [("continuation_token", codeStep), ("grant_type", "oob"), ("oob", "1")]))?.suberror == .invalidOOBValue)
        let verified = call(p, .resetPasswordContinue, [("continuation_token", codeStep), ("grant_type", "oob"), ("oob", message.code)])
        #expect(body(verified)?["expires_in"] == 600)
        let submitStep = try continuation(verified)
        #expect(error(call(p, .resetPasswordSubmit, [("continuation_token", submitStep), ("new_password", "Dana-passw0rd")]))?.suberror == .passwordRecentlyUsed)
        let submitted = call(p, .resetPasswordSubmit, [("continuation_token", submitStep), ("new_password", "Dana-New-passw0rd")])
        #expect(body(submitted)?["poll_interval"] == 2)
        let pollToken = try continuation(submitted)
        let first = call(p, .resetPasswordPollCompletion, [("continuation_token", pollToken)])
        #expect(body(first)?["status"] == "in_progress" && body(first)?["continuation_token"] == .string(pollToken))
        let second = call(p, .resetPasswordPollCompletion, [("continuation_token", pollToken)])
        #expect(body(second)?["status"] == "succeeded")
        #expect(token(p, [("grant_type", "continuation_token"), ("continuation_token", try continuation(second))]).body?["id_token"] != nil)
        let oldStep = try passwordStep(p)
        #expect(token(p, [("grant_type", "password"), ("continuation_token", oldStep), ("password", "Dana-passw0rd")]).error?.aadsts == 50126)
        #expect(token(p, [("grant_type", "password"), ("continuation_token", oldStep), ("password", "Dana-New-passw0rd")]).body != nil)
    }

    @Test("MFA: with the mfa_required capability, mfa_required, introspect, challenge by id, mfa_oob; without it, the browser")
    func mfa() throws {
        let p = provider()
        let step = try passwordStep(p, "erin@example.com", capabilities: "mfa_required registration_required")
        let challenge = try #require(token(p, [("grant_type", "password"), ("continuation_token", step), ("password", "Erin-passw0rd")]).error)
        #expect(challenge.code == .invalidGrant && challenge.suberror == .mfaRequired && challenge.aadsts == 50076)
        let mfaToken = try #require(challenge.nativeAuth?.continuationToken)
        let introspected = call(p, .signInIntrospect, [("continuation_token", mfaToken)])
        let method = try #require(body(introspected)?["methods"]?.arrayValue?.first)
        #expect(method["challenge_type"] == "oob" && method["challenge_channel"] == "email")
        #expect(method["id"] == "email")
        #expect(error(call(p, .signInChallenge, [("continuation_token", try continuation(introspected)), ("challenge_type", "oob redirect"), ("id", "sms")]))?.code == .invalidRequest)
        let introspectedAgain = try continuation(call(p, .signInIntrospect, [("continuation_token", try continuation(introspected))]))
        _ = introspectedAgain
    }

    @Test("MFA completes with mfa_oob and the tokens say mfa; a client without the capability is sent to the browser")
    func mfaCompletes() throws {
        let p = provider()
        let step = try passwordStep(p, "erin@example.com", capabilities: "mfa_required")
        let challenge = try #require(token(p, [("grant_type", "password"), ("continuation_token", step), ("password", "Erin-passw0rd")]).error)
        let introspected = try continuation(call(p, .signInIntrospect, [("continuation_token", challenge.nativeAuth?.continuationToken ?? "")]))
        let sent = try continuation(call(p, .signInChallenge, [("continuation_token", introspected), ("challenge_type", "oob password redirect"), ("id", "email")]))
        let message = try #require(p.outbox.all.last)
        #expect(message.purpose == .mfa && message.to == "erin@example.com")
        let tokens = try #require(token(p, [("grant_type", "mfa_oob"), ("continuation_token", sent), ("oob", message.code)]).body)
        let amr = Fixtures.claims(tokens["access_token"]?.stringValue)["amr"]?.arrayValue ?? []
        #expect(amr.contains("mfa"))
        let noCapability = try passwordStep(p, "erin@example.com")
        let redirect = try #require(token(p, [("grant_type", "password"), ("continuation_token", noCapability), ("password", "Erin-passw0rd")]).body)
        #expect(redirect["challenge_type"] == "redirect" && redirect["access_token"] == nil)
    }

    @Test("JIT registration's endpoints check the request and refuse every continuation token")
    func register() throws {
        let p = provider()
        let initiated = try continuation(call(p, .signInInitiate, [("username", "dana@example.com"), ("challenge_type", "password redirect")]))
        #expect(error(call(p, .registerIntrospect, [("continuation_token", initiated)]))?.code == .invalidGrant)
        #expect(error(call(p, .registerChallenge, [("continuation_token", initiated)]))?.code == .invalidRequest)
        #expect(error(call(p, .registerContinue, [("continuation_token", initiated), ("grant_type", "password")]))?.code == .invalidGrant)
        #expect(error(call(p, .registerIntrospect, client: Self.plain, [("continuation_token", initiated)]))?.code == .invalidClient)
    }

    @Test("the error body carries continuation_token, required_attributes and invalid_attributes")
    func errorBody() {
        var e = OAuthError.attributesRequired([SignUpAttribute("city")].compactMap { $0 }, continuationToken: "abc")
        var body = e.responseBody(traceID: "t", correlationID: "c", timestamp: "2026-01-01 00:00:00Z")
        #expect(body["continuation_token"] == "abc" && body["error_codes"] == [55106])
        #expect(body["required_attributes"] == [["name": "city", "type": "string", "required": true]])
        e = .attributeValidationFailed(["city"])
        body = e.responseBody(traceID: "t", correlationID: "c", timestamp: "2026-01-01 00:00:00Z")
        #expect(body["invalid_attributes"] == [["name": "city"]] && body["suberror"] == "attribute_validation_failed")
    }
}
