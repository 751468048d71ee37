@testable import MockIDPCore
import MockIDPJOSE
import Testing

/// The codes External ID's pages mail and wait for: eight digits in the outbox, bound to their purpose, tenant and
/// client, ten minutes long, three wrong tries, one use.
@Suite struct EmailVerificationsTests {
    let clock = ProviderClock.fixed(Fixtures.now)
    let tenant = Tenant(id: "3c8a9e41-6f2b-4d7c-a5e0-9b1d2f3a4c5e", domains: ["woodgrovecustomers.onmicrosoft.com"],
                        externalID: ExternalIDSettings(subdomain: "woodgrovecustomers", attributes: ["city"]))
    let client = "4b2e6c8a-1d3f-4a5b-9c7e-2f4a6b8c0d1e"

    func send(_ provider: IdentityProvider, purpose: Outbox.Purpose = .signUp) throws -> (handle: String, code: String) {
        let handle = provider.externalIDUserFlows.sendCode(to: "erin@example.net", purpose: purpose, tenant: tenant, clientID: client)
        let message = try #require(provider.outbox.all.last)
        #expect(message.to == "erin@example.net" && message.purpose == purpose && message.sentAt == Fixtures.now)
        return (handle, message.code)
    }

    @Test("a code is eight digits, each digit drawn evenly")
    func digits() {
        let random = SystemRandom()
        var counts = [Int](repeating: 0, count: 10)
        for _ in 0..<2000 {
            let code = EmailVerifications.code(random)
            #expect(code.count == 8 && code.allSatisfy(\.isNumber))
            for digit in code.utf8 { counts[Int(digit - UInt8(ascii: "0"))] += 1 }
        }
        // 16,000 digits: each of the ten near 1,600 (a bias of 256 mod 10 would show as ±3 %, well inside; this
        // catches a digit never drawn or drawn far too often).
        #expect(counts.allSatisfy { (1300...1900).contains($0) }, "\(counts)")
    }

    @Test("the right code proves the address once; a wrong one counts, and the third wrong one spends it")
    func tries() throws {
        let provider = Fixtures.provider(clock: clock)
        let flows = provider.externalIDUserFlows
        let (handle, code) = try send(provider)
        let wrong = code == "00000000" ? "11111111" : "00000000"
        guard case .failure(let first) = flows.checkCode(handle, code: wrong, purpose: .signUp, tenant: tenant, clientID: client) else {
            Issue.record("a wrong code was accepted"); return
        }
        #expect(first.message == "That code is incorrect. Please try again.")
        guard case .success(let email) = flows.checkCode(handle, code: " \(code) ", purpose: .signUp, tenant: tenant, clientID: client) else {
            Issue.record("the right code was refused"); return
        }
        #expect(email == "erin@example.net")
        #expect(flows.verifiedEmail(handle, purpose: .signUp, tenant: tenant, clientID: client) == "erin@example.net")
        // A verified code is not checked again, and once spent proves nothing.
        if case .success = flows.checkCode(handle, code: code, purpose: .signUp, tenant: tenant, clientID: client) {
            Issue.record("a code was accepted twice")
        }
        flows.spend(handle)
        #expect(flows.verifiedEmail(handle, purpose: .signUp, tenant: tenant, clientID: client) == nil)

        let (again, code2) = try send(provider)
        let other = code2 == "00000000" ? "11111111" : "00000000"
        for _ in 0..<3 { _ = flows.checkCode(again, code: other, purpose: .signUp, tenant: tenant, clientID: client) }
        guard case .failure(let spent) = flows.checkCode(again, code: code2, purpose: .signUp, tenant: tenant, clientID: client) else {
            Issue.record("the right code was accepted after three wrong ones"); return
        }
        #expect(spent.message == "That code has expired. Please request a new code.")
    }

    @Test("a code answers only for its purpose, tenant and client, and only for ten minutes")
    func binding() throws {
        let provider = Fixtures.provider(clock: clock)
        let flows = provider.externalIDUserFlows
        let (handle, code) = try send(provider, purpose: .passwordReset)
        let elsewhere = Tenant(id: "5e7a9c1b-3d5f-4b7a-9c1e-3f5a7b9d1c2e", externalID: ExternalIDSettings(subdomain: "tailspin"))
        for (purpose, t, c) in [(Outbox.Purpose.signUp, tenant, client), (.passwordReset, elsewhere, client),
                                (.passwordReset, tenant, "7a9c1e3b-5d7f-4a9c-b1e3-5a7c9e1b3d5f")] {
            guard case .failure = flows.checkCode(handle, code: code, purpose: purpose, tenant: t, clientID: c) else {
                Issue.record("a code answered for \(purpose) in \(t.id) for \(c)"); return
            }
        }
        clock.advance(by: 600)
        guard case .failure(let late) = flows.checkCode(handle, code: code, purpose: .passwordReset, tenant: tenant, clientID: client) else {
            Issue.record("a code answered after ten minutes"); return
        }
        #expect(late.message.contains("expired"))
    }

    @Test("sign-up refuses a malformed or overlong address, a missing or overlong attribute, and a weak password")
    func signUpRules() {
        let provider = Fixtures.provider(clock: clock)
        let flows = provider.externalIDUserFlows
        let directory = provider.snapshot()
        #expect(flows.signUpRefusal(email: "a@b", tenant: tenant, directory: directory) != nil)
        #expect(flows.signUpRefusal(email: String(repeating: "a", count: 250) + "@example.com", tenant: tenant, directory: directory) != nil)
        #expect(flows.signUpRefusal(email: "a\u{7}b@example.com", tenant: tenant, directory: directory) != nil)
        #expect(flows.attributeProblems([:], tenant: tenant).map(\.attribute) == ["city"])
        #expect(flows.attributeProblems(["city": String(repeating: "x", count: 257)], tenant: tenant).count == 1)
        #expect(flows.attributeProblems(["city": "Oslo"], tenant: tenant).isEmpty)
        var closed = tenant
        closed.externalID?.signUp = false
        #expect(flows.signUpRefusal(email: "ok@example.com", tenant: closed, directory: directory)?.message == "Sign-up is not enabled for this application.")
    }
}
