import Foundation
import MockIDPTesting
import Testing

/// userinfo belongs to Microsoft Graph: as in Entra, only an access token whose audience is Graph is accepted.
@Suite struct UserInfoAudienceTests {
    static func passwordToken(_ idp: MockIdentityProvider, scope: String) async throws -> String {
        let r = try await idp.postForm("/\(EndpointTests.contoso)/oauth2/v2.0/token", [
            ("grant_type", "password"), ("client_id", EndpointTests.web), ("client_secret", "web-secret"),
            ("username", "alice@contoso.onmicrosoft.com"), ("password", "alice-password"), ("scope", scope),
        ])
        #expect(r.status == 200, "\(r.text)")
        return try #require(r.json["access_token"]?.stringValue)
    }

    @Test("a token for another API gets 401 with WWW-Authenticate; a Graph token gets the profile",
          arguments: MockIdentityProviderMode.allCases)
    func onlyGraphTokens(mode: MockIdentityProviderMode) async throws {
        try await withMockIdentityProvider(mode: mode) { idp in
            let api = try await Self.passwordToken(idp, scope: "api://contoso-api/access_as_user openid")
            let refused = try await idp.get("/oidc/userinfo", headers: ["Authorization": "Bearer \(api)"])
            #expect(refused.status == 401, "\(refused.text)")
            #expect(refused.header("WWW-Authenticate")?.hasPrefix("Bearer error=\"invalid_token\"") == true)
            #expect(refused.text.contains("Microsoft Graph"))
            let graph = try await Self.passwordToken(idp, scope: "User.Read openid profile")
            let info = try await idp.get("/oidc/userinfo", headers: ["Authorization": "Bearer \(graph)"])
            #expect(info.status == 200 && info.json["name"] == "Alice Adams")
        }
    }
}
