import MockIDPCore
import MockIDPJOSE
import Testing

/// UserInfo answers what the access token's scopes allow (learn.microsoft.com, "Microsoft identity platform
/// UserInfo endpoint"), and a Graph token's `scp` carries the OpenID Connect scopes it was issued for.
@Suite struct UserInfoScopeTests {
    let provider = Fixtures.provider()

    func token(_ scope: String, version: ProtocolVersion = .v2) throws -> String {
        var p = [("grant_type", "password"), ("client_id", Fixtures.mobile), ("username", "alice@contoso.onmicrosoft.com"),
                 ("password", "alice-password")]
        p.append(version == .v2 ? ("scope", scope) : ("resource", scope))
        let body = provider.token(TokenRequest(tenant: Fixtures.contosoID, version: version,
                                               parameters: p.map { (name: $0.0, value: $0.1) }), context: provider.testScope()).body
        return try #require(body?["access_token"]?.stringValue, "\(String(describing: body))")
    }

    func userInfo(_ scope: String) throws -> JSONObject {
        guard case .success(let info) = provider.userInfo.answer(bearerToken: try token(scope), directory: provider.snapshot()) else {
            Issue.record("userinfo refused \(scope)"); return [:]
        }
        return info.objectValue ?? [:]
    }

    @Test("openid alone: sub and nothing else")
    func openIDOnly() throws {
        let info = try userInfo("openid")
        #expect(Set(info.keys) == ["sub"])
        #expect(info["sub"]?.stringValue?.count == 43)
    }

    @Test("profile: the name claims and Graph's photo URL; no email")
    func profile() throws {
        let info = try userInfo("openid profile")
        #expect(Set(info.keys) == ["sub", "name", "family_name", "given_name", "picture"])
        #expect(info["name"] == "Alice Adams" && info["given_name"] == "Alice" && info["family_name"] == "Adams")
        #expect(info["picture"] == "https://graph.microsoft.com/v1.0/me/photo/$value")
    }

    @Test("email: the email and no names")
    func email() throws {
        let info = try userInfo("openid email")
        #expect(Set(info.keys) == ["sub", "email"])
        #expect(info["email"] == "alice@contoso.com")
    }

    @Test("a Graph token carries the OpenID Connect scopes in scp beside its Graph scopes, never offline_access")
    func graphScopes() throws {
        let claims = Fixtures.claims(try token("User.Read openid profile email offline_access"))
        #expect(claims["scp"] == "openid profile email User.Read")
        let all = try userInfo("User.Read openid profile email offline_access")
        #expect(Set(all.keys) == ["sub", "name", "family_name", "given_name", "picture", "email"])
        // User.Read alone: scp names no OpenID scope, so userinfo gives `sub` only.
        #expect(Set(try userInfo("User.Read").keys) == ["sub"])
    }

    @Test("a token for another API keeps only its own scopes in scp")
    func otherAPIs() throws {
        let claims = Fixtures.claims(try token("api://contoso-api/access_as_user openid profile"))
        #expect(claims["scp"] == "access_as_user")
    }

    @Test("picture names the Graph host of the token's cloud")
    func photoURL() {
        #expect(UserInfoEndpoint.photoURL(audience: "00000003-0000-0000-c000-000000000000", cloud: .public)
                == "https://graph.microsoft.com/v1.0/me/photo/$value")
        #expect(UserInfoEndpoint.photoURL(audience: "00000003-0000-0000-c000-000000000000", cloud: .usgov)
                == "https://graph.microsoft.us/v1.0/me/photo/$value")
        #expect(UserInfoEndpoint.photoURL(audience: "https://dod-graph.microsoft.us/", cloud: .usgov)
                == "https://dod-graph.microsoft.us/v1.0/me/photo/$value")
        #expect(UserInfoEndpoint.photoURL(audience: "https://microsoftgraph.chinacloudapi.cn", cloud: .china)
                == "https://microsoftgraph.chinacloudapi.cn/v1.0/me/photo/$value")
    }
}
