import MockIDPCore
import Testing

/// The sign-in decisions (docs/entra-behaviour.md, "Sign-in decisions"), without HTTP.
@Suite struct InteractionTests {
    let provider = Fixtures.provider()
    let contoso = Fixtures.contoso
    let alice = Fixtures.alice
    let bob = Fixtures.bob

    func validated(_ extra: [(String, String)] = [], client: String = Fixtures.mobile) throws -> ValidatedAuthorization {
        let parameters = [("client_id", client), ("redirect_uri", "http://localhost"), ("response_type", "code"),
                          ("scope", "openid profile"), ("state", "s")] + extra
        let decision = provider.checkAuthorization(AuthorizationRequest(tenant: Fixtures.contosoID,
                                                                        parameters: parameters.map { (name: $0.0, value: $0.1) }))
        guard case .signIn(let request) = decision else { throw CheckFailed(decision: "\(decision)") }
        return request
    }

    struct CheckFailed: Error { let decision: String }

    func session(_ users: User...) -> String {
        var cookie = provider.sessions.forSignIn(nil)
        for user in users { cookie = provider.sessions.add(SessionAccount(user, of: contoso, authTime: Fixtures.now - 60), to: cookie) }
        return cookie
    }

    func describe(_ interaction: Interaction) -> String {
        switch interaction {
        case .answer(let entry): "answer \(entry.user.username)"
        case .headlessSignIn(let user, _): "headless \(user.username)"
        case .loginRequired: "login_required"
        case .signInPage(let username, let offer): "signin \(username ?? "-") offer=\(offer)"
        case .consentPage(let entry): "consent \(entry.user.username)"
        }
    }

    func decide(_ extra: [(String, String)] = [], session: String?) throws -> String {
        describe(provider.signIn.interaction(for: try validated(extra), sessionID: session, hostScope: .neutral, directory: provider.snapshot()))
    }

    @Test("no prompt: one usable session account answers at once; none or several show the sign-in page")
    func noPrompt() throws {
        #expect(try decide(session: nil) == "signin - offer=true")
        #expect(try decide(session: session(alice)) == "answer \(alice.username)")
        #expect(try decide(session: session(alice, bob)) == "signin - offer=true")
        #expect(try decide([("login_hint", bob.username)], session: session(alice, bob)) == "answer \(bob.username)")
    }

    @Test("prompt=none answers from exactly one usable account, else login_required; max_age and login_hint narrow it")
    func promptNone() throws {
        #expect(try decide([("prompt", "none")], session: nil) == "login_required")
        #expect(try decide([("prompt", "none")], session: session(alice)) == "answer \(alice.username)")
        #expect(try decide([("prompt", "none")], session: session(alice, bob)) == "login_required")
        #expect(try decide([("prompt", "none"), ("max_age", "30")], session: session(alice)) == "login_required")
        #expect(try decide([("prompt", "none"), ("login_hint", bob.username)], session: session(alice)) == "login_required")
    }

    @Test("prompt=login and create always show the page, without the session's accounts; select_account offers them")
    func promptLoginAndSelect() throws {
        #expect(try decide([("prompt", "login"), ("login_hint", alice.username)], session: session(alice)) == "signin \(alice.username) offer=false")
        #expect(try decide([("prompt", "create")], session: session(alice)) == "signin - offer=false")
        #expect(try decide([("prompt", "select_account")], session: session(alice)) == "signin - offer=true")
    }

    @Test("prompt=consent shows consent for the one usable account, else the sign-in page first")
    func promptConsent() throws {
        #expect(try decide([("prompt", "consent")], session: session(alice)) == "consent \(alice.username)")
        #expect(try decide([("prompt", "consent")], session: nil) == "signin - offer=true")
    }
}
