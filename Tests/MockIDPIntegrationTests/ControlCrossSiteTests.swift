import Foundation
import MockIDPTesting
import Testing

/// Without `--admin-token` the control API trusts loopback callers, and a browser on this machine is one. A web page
/// must not be able to change the server from another site (cross-site request forgery): state-changing calls need a
/// JSON body and, when a browser names one, this server's own origin. In both modes: the rule is the routes'.
@Suite struct ControlCrossSiteTests {
    static let fault = #"{"endpoint":"token","status":503}"#

    static func post(_ idp: MockIdentityProvider, _ path: String, _ body: String?, headers: [String: String]) async throws -> MockIDPResponse {
        try await idp.execute("POST", "/_mockidp/" + path, headers: headers, body: body.map { Array($0.utf8) })
    }

    /// Expects 403 in the control API's JSON error shape, with `mention` in its description, and no fault queued.
    static func expectRefused(_ reply: MockIDPResponse, _ idp: MockIdentityProvider, mentioning mention: String,
                              sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(reply.status == 403, "\(reply.text)", sourceLocation: sourceLocation)
        #expect(reply.json["error"] == "forbidden", sourceLocation: sourceLocation)
        #expect(reply.json["error_description"]?.stringValue?.contains(mention) == true, "\(reply.text)", sourceLocation: sourceLocation)
        let pending = try await ControlAPITests.control(idp, "faults")
        #expect(pending.json["faults"]?.arrayValue?.isEmpty == true, "\(pending.text)", sourceLocation: sourceLocation)
    }

    @Test("a text/plain or form body (a page's simple request) is refused with 403 and changes nothing",
          arguments: MockIdentityProviderMode.allCases,
          ["text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"])
    func simpleRequestBodiesAreRefused(mode: MockIdentityProviderMode, contentType: String) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            let r = try await Self.post(idp, "faults", Self.fault, headers: ["Content-Type": contentType])
            try await Self.expectRefused(r, idp, mentioning: "not application/json")
            let log = try await ControlAPITests.control(idp, "requests")
            #expect(log.json["requests"]?.arrayValue?.last?["reason"]?.stringValue?.contains("cross-site") == true, "\(log.text)")
        }
    }

    @Test("an Origin other than the server's own, or Sec-Fetch-Site cross-site/same-site, is refused with 403",
          arguments: MockIdentityProviderMode.allCases)
    func foreignOriginIsRefused(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            let base = idp.baseURL
            let json = ["Content-Type": "application/json"]
            for origin in ["https://evil.example", "null", base + ".evil.example", base.replacingOccurrences(of: "http:", with: "https:")] {
                let r = try await Self.post(idp, "faults", Self.fault, headers: json.merging(["Origin": origin]) { a, _ in a })
                try await Self.expectRefused(r, idp, mentioning: "Origin")
            }
            for site in ["cross-site", "same-site"] {
                let r = try await Self.post(idp, "faults", Self.fault, headers: json.merging(["Sec-Fetch-Site": site]) { a, _ in a })
                try await Self.expectRefused(r, idp, mentioning: "Sec-Fetch-Site")
            }
            // DNS rebinding: the page's own name now points at 127.0.0.1, so Host and Origin agree, but name no host
            // this server is known by.
            let port = URLComponents(string: base)?.port.map { ":\($0)" } ?? ""
            let rebound = try await Self.post(idp, "faults", Self.fault, headers: json.merging([
                "Host": "attacker.example\(port)", "Origin": "http://attacker.example\(port)"]) { a, _ in a })
            try await Self.expectRefused(rebound, idp, mentioning: "not known by")
            // A page can send a bodiless POST too; its Origin gives it away.
            let reset = try await Self.post(idp, "reset", nil, headers: ["Origin": "https://evil.example"])
            #expect(reset.status == 403)
        }
    }

    @Test("test clients (JSON, no Origin) and the server's own origin still get through",
          arguments: MockIdentityProviderMode.allCases)
    func wellBehavedCallersStillWork(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            let base = idp.baseURL
            let json = ["Content-Type": "application/json; charset=utf-8"]
            let fault = try await Self.post(idp, "faults", Self.fault, headers: json)
            #expect(fault.status == 201)
            let sameOrigin = json.merging(["Origin": base, "Sec-Fetch-Site": "same-origin"]) { a, _ in a }
            let localhost = base.replacingOccurrences(of: "127.0.0.1", with: "localhost")
            let byName = try await Self.post(idp, "clock", #"{"advance":1}"#, headers: json.merging([
                "Host": String(localhost.dropFirst("http://".count)), "Origin": localhost]) { a, _ in a })
            #expect(byName.status == 200, "\(byName.text)")
            let clock = try await Self.post(idp, "clock", #"{"advance":1}"#, headers: sameOrigin)
            #expect(clock.status == 200)
            let rotate = try await Self.post(idp, "keys/rotate", nil, headers: [:])
            #expect(rotate.status == 200)
            let reset = try await Self.post(idp, "reset", nil, headers: ["Sec-Fetch-Site": "none"])
            #expect(reset.status == 200)
            #expect(try await ControlAPITests.control(idp, "requests").status == 200)
        }
    }
}
