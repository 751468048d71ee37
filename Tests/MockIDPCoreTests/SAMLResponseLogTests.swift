@testable import MockIDPCore
import MockIDPJOSE
import Testing

/// The last SAML Response each app was sent, kept for the inspector (docs/saml.md, "Inspector").
@Suite struct SAMLResponseLogTests {
    static func entry(_ client: String, at time: Int, defect: SAMLDefect? = nil) -> SAMLResponseLog.Entry {
        .init(tenantID: "tid", clientID: client, sentAt: time, destination: "https://sp.example.test/acs", defect: defect,
              xml: "<Response at=\"\(time)\"/>")
    }

    @Test("each app keeps only its last Response, found whatever the client ID's case")
    func lastPerApp() {
        let log = SAMLResponseLog()
        log.record(Self.entry("App-A", at: 1))
        log.record(Self.entry("app-b", at: 2))
        log.record(Self.entry("app-a", at: 3, defect: .signatureWrapping))
        #expect(log.last(tenantID: "tid", clientID: "APP-A")?.sentAt == 3)
        #expect(log.last(tenantID: "tid", clientID: "app-a")?.defect == .signatureWrapping)
        #expect(log.last(tenantID: "tid", clientID: "app-b")?.sentAt == 2)
        #expect(log.last(tenantID: "other", clientID: "app-b") == nil)
        #expect(log.last(tenantID: "tid", clientID: "app-a")?.json["defect"] == .string("saml-xsw"))
    }

    @Test("only the most recently answered apps are kept, and reset forgets them")
    func bounded() {
        let log = SAMLResponseLog(capacity: 3)
        for n in 0..<5 { log.record(Self.entry("app-\(n)", at: n)) }
        #expect(log.last(tenantID: "tid", clientID: "app-0") == nil)
        #expect(log.last(tenantID: "tid", clientID: "app-1") == nil)
        #expect(log.last(tenantID: "tid", clientID: "app-4")?.xml == "<Response at=\"4\"/>")
        log.record(Self.entry("app-2", at: 9))   // answered again: the newest, so app-3 is the next to go
        log.record(Self.entry("app-5", at: 10))
        #expect(log.last(tenantID: "tid", clientID: "app-3") == nil)
        #expect(log.last(tenantID: "tid", clientID: "app-2")?.sentAt == 9)
        log.removeAll()
        #expect(log.last(tenantID: "tid", clientID: "app-5") == nil)
    }
}
