import MockIDPCore
import MockIDPJOSE
import Testing

/// What the control API changes in the provider: the claims-challenge rule, fault matching and counting, extra
/// claims, key rotation and reset.
@Suite struct ControlTests {
    let provider = Fixtures.provider()

    @Test("a claims request answers a challenge when it contains its claims and values; extra claims are fine")
    func claimsAnswerRule() throws {
        let challenge = try #require(ClaimsRequest(json: #"{"access_token":{"acrs":{"essential":true,"values":["c1","c2"]}}}"#))
        let answer = try #require(ClaimsRequest(json: #"{"access_token":{"acrs":{"values":["c2","c1","c3"]},"xms_cc":{"values":["CP1"]}},"id_token":null}"#))
        #expect(answer.answers(challenge))
        #expect(answer.asksForMultiFactor)
        #expect(answer.authenticationContexts == ["c2", "c1", "c3"])
        #expect(try !#require(ClaimsRequest(json: #"{"access_token":{"acrs":{"value":"c1"}}}"#)).answers(challenge))
        #expect(try !#require(ClaimsRequest(json: #"{"id_token":{"acrs":{"values":["c1","c2"]}}}"#)).answers(challenge))
        #expect(try !#require(ClaimsRequest(json: #"{"access_token":{"xms_cc":{"values":["CP1"]}}}"#)).asksForMultiFactor)
        #expect(try #require(ClaimsRequest(json: #"{"id_token":{"amr":{"values":["mfa"]}}}"#)).asksForMultiFactor)
        for bad in ["[]", "{", #"{"access_token":"x"}"#, #"{"access_token":{"acrs":5}}"#] {
            #expect(ClaimsRequest(json: bad) == nil, "\(bad)")
        }
    }

    @Test("faults match by endpoint and filters, oldest first, and count down; count nil lasts until reset")
    func faultMatching() {
        var once = Fault(endpoint: "token")
        once.clientID = Fixtures.daemon.uppercased()
        once.tenant = "contoso.onmicrosoft.com"
        once.grantType = "client_credentials"
        once.remaining = 1
        let registered = provider.controls.add(once)
        #expect(registered.id > 0)
        #expect(provider.controls.takeFault(for: FaultTarget(endpoint: "keys", clientID: Fixtures.daemon, tenant: Fixtures.contosoID, grantType: "client_credentials"), directory: provider.snapshot()) == nil)
        #expect(provider.controls.takeFault(for: FaultTarget(endpoint: "token", clientID: Fixtures.mobile, tenant: Fixtures.contosoID, grantType: "client_credentials"), directory: provider.snapshot()) == nil)
        #expect(provider.controls.takeFault(for: FaultTarget(endpoint: "token", clientID: Fixtures.daemon, tenant: Fixtures.fabrikamID, grantType: "client_credentials"), directory: provider.snapshot()) == nil)
        #expect(provider.controls.takeFault(for: FaultTarget(endpoint: "token", clientID: Fixtures.daemon, tenant: Fixtures.contosoID, grantType: "password"), directory: provider.snapshot()) == nil)
        let target = FaultTarget(endpoint: "token", clientID: Fixtures.daemon, tenant: Fixtures.contosoID, grantType: "client_credentials")
        #expect(provider.controls.takeFault(for: target, directory: provider.snapshot())?.id == registered.id)
        #expect(provider.controls.takeFault(for: target, directory: provider.snapshot()) == nil)

        var always = Fault(endpoint: "keys")
        always.remaining = nil
        _ = provider.controls.add(always)
        for _ in 0..<3 { #expect(provider.controls.takeFault(for: FaultTarget(endpoint: "keys"), directory: provider.snapshot()) != nil) }
        provider.reset()
        #expect(provider.controls.takeFault(for: FaultTarget(endpoint: "keys"), directory: provider.snapshot()) == nil)
    }

    @Test("a 50076 fault carries the default challenge and lets an answering request through without counting it")
    func challengeFault() throws {
        var fault = Fault(endpoint: "token")
        fault.aadsts = 50076
        fault.remaining = 1
        _ = provider.controls.add(fault)
        let error = fault.oauthError(resource: "api://x")
        #expect(error.code == .invalidGrant && error.status == 400 && error.suberror == .basicAction)
        #expect(error.claims == Fault.multiFactorChallenge)
        #expect(error.message.contains("'api://x'"))
        let answer = ClaimsRequest(json: Fault.multiFactorChallenge)
        #expect(provider.controls.takeFault(for: FaultTarget(endpoint: "token", claims: answer), directory: provider.snapshot()) == nil)
        #expect(provider.controls.takeFault(for: FaultTarget(endpoint: "token"), directory: provider.snapshot()) != nil)
    }

    @Test("fault defaults: status from the code, error from the status, Retry-After on 429 and 503")
    func faultDefaults() {
        var throttle = Fault(endpoint: "token")
        throttle.status = 429
        #expect(throttle.oauthError().code == .temporarilyUnavailable && throttle.effectiveRetryAfter == 1)
        var outage = Fault(endpoint: "keys")
        outage.status = 500
        #expect(outage.oauthError().code == .serverError && outage.effectiveRetryAfter == nil)
        var wrongSecret = Fault(endpoint: "token")
        wrongSecret.aadsts = 7000215
        #expect(wrongSecret.effectiveStatus == 401 && wrongSecret.oauthError().code == .invalidClient)
        var delay = Fault(endpoint: "token")
        delay.delayMilliseconds = 10
        #expect(delay.isDelayOnly)
    }

    @Test("extra claims go into the next matching response and are used up")
    func extraClaims() {
        _ = provider.controls.add(ExtraClaims(clientID: Fixtures.daemon, claims: ["ctry": "NZ"], remaining: 1))
        let request: [(String, String)] = [("grant_type", "client_credentials"), ("client_id", Fixtures.daemon),
                                           ("client_secret", "daemon-secret"), ("scope", "api://contoso-api/.default")]
        #expect(Fixtures.claims(Fixtures.token(provider, request).body?["access_token"]?.stringValue)["ctry"] == "NZ")
        #expect(Fixtures.claims(Fixtures.token(provider, request).body?["access_token"]?.stringValue)["ctry"] == nil)
    }

    @Test("rotating signs with the new key and keeps the old published; retiring drops it")
    func keys() throws {
        let old = Fixtures.signingKey.keyID
        let next = try SigningKey.generate(validityDays: 1)
        let generation = provider.snapshot().generation
        provider.served.rotateSigningKey(to: next)
        #expect(provider.snapshot().generation > generation)
        #expect(provider.snapshot().signingKeys.map(\.keyID) == [next.keyID, old])
        #expect(provider.served.retireSigningKeys() == [old])
        #expect(provider.snapshot().signingKeys.map(\.keyID) == [next.keyID])
    }

    @Test("reset moves the clock back to real time")
    func resetClock() {
        let clock = ProviderClock.fixed(Fixtures.now)
        let p = Fixtures.provider(clock: clock)
        clock.advance(by: 60)
        #expect(clock.now() == Fixtures.now + 60 && clock.offset == 60)
        p.reset()
        #expect(clock.now() == Fixtures.now)
    }
}
