/// Every endpoint the provider serves. The path templates live in `EndpointTable`: discovery documents and
/// route registration both read it, and nothing else spells a path.
package enum Endpoint: String, Sendable, CaseIterable {
    case v2Discovery, v1Discovery
    case v2Keys, v1Keys
    case v2Authorize, v1Authorize
    case v2Token, v1Token
    case v2DeviceCode, v1DeviceCode
    case v2Logout, v1Logout
    case userInfo
    /// The v1 discovery document's `userinfo_endpoint` (Entra's v1 path); answers as `userInfo` does.
    case v1UserInfo
    /// The v1 document's `check_session_iframe` (OpenID Connect Session Management's OP iframe).
    case v1CheckSession
    /// Both documents' `kerberos_endpoint` (Entra's Kerberos proxy, which this server does not implement).
    case kerberos
    case instanceDiscovery
    case userRealm
    case deviceLogin
    /// Federation metadata (SAML 2.0 and WS-Federation), matched without regard to case as every path is.
    case federationMetadata
    /// SAML 2.0 sign-on and logout (HTTP-Redirect and HTTP-POST bindings).
    case saml2
    /// WS-Federation's passive requestor endpoint.
    case wsfed
    case health
    /// External ID's native authentication API (`NativeAuthCall`); its token step is `v2Token`.
    case nativeSignInInitiate, nativeSignInChallenge, nativeSignInIntrospect
    case nativeSignUpStart, nativeSignUpChallenge, nativeSignUpContinue
    case nativeResetPasswordStart, nativeResetPasswordChallenge, nativeResetPasswordContinue, nativeResetPasswordSubmit
    case nativeResetPasswordPollCompletion
    case nativeRegisterIntrospect, nativeRegisterChallenge, nativeRegisterContinue
}

/// The path templates of each endpoint. `{tenant}` is the tenant segment; `{username}` the user-realm name.
package enum EndpointTable {
    /// Path templates, in the order routes are registered.
    package static let paths: [(endpoint: Endpoint, template: String)] = [
        (.v2Discovery, "/{tenant}/v2.0/.well-known/openid-configuration"),
        (.v1Discovery, "/{tenant}/.well-known/openid-configuration"),
        (.v2Keys, "/{tenant}/discovery/v2.0/keys"),
        (.v1Keys, "/{tenant}/discovery/keys"),
        (.v2Authorize, "/{tenant}/oauth2/v2.0/authorize"),
        (.v1Authorize, "/{tenant}/oauth2/authorize"),
        (.v2Token, "/{tenant}/oauth2/v2.0/token"),
        (.v1Token, "/{tenant}/oauth2/token"),
        (.v2DeviceCode, "/{tenant}/oauth2/v2.0/devicecode"),
        (.v1DeviceCode, "/{tenant}/oauth2/devicecode"),
        (.v2Logout, "/{tenant}/oauth2/v2.0/logout"),
        (.v1Logout, "/{tenant}/oauth2/logout"),
        (.userInfo, "/oidc/userinfo"),
        (.v1UserInfo, "/{tenant}/openid/userinfo"),
        (.v1CheckSession, "/{tenant}/oauth2/checksession"),
        (.kerberos, "/{tenant}/kerberos"),
        (.instanceDiscovery, "/common/discovery/instance"),
        (.userRealm, "/common/userrealm/{username}"),
        (.deviceLogin, "/devicelogin"),
        (.federationMetadata, "/{tenant}/federationmetadata/2007-06/federationmetadata.xml"),
        (.saml2, "/{tenant}/saml2"),
        (.wsfed, "/{tenant}/wsfed"),
        (.health, "/_mockidp/health"),
        // Microsoft Learn, "Native authentication API reference"; MSAL for iOS and macOS, `MSALNativeAuthEndpoint`.
        (.nativeSignInInitiate, "/{tenant}/oauth2/v2.0/initiate"),
        (.nativeSignInChallenge, "/{tenant}/oauth2/v2.0/challenge"),
        (.nativeSignInIntrospect, "/{tenant}/oauth2/v2.0/introspect"),
        (.nativeSignUpStart, "/{tenant}/signup/v1.0/start"),
        (.nativeSignUpChallenge, "/{tenant}/signup/v1.0/challenge"),
        (.nativeSignUpContinue, "/{tenant}/signup/v1.0/continue"),
        (.nativeResetPasswordStart, "/{tenant}/resetpassword/v1.0/start"),
        (.nativeResetPasswordChallenge, "/{tenant}/resetpassword/v1.0/challenge"),
        (.nativeResetPasswordContinue, "/{tenant}/resetpassword/v1.0/continue"),
        (.nativeResetPasswordSubmit, "/{tenant}/resetpassword/v1.0/submit"),
        (.nativeResetPasswordPollCompletion, "/{tenant}/resetpassword/v1.0/poll_completion"),
        (.nativeRegisterIntrospect, "/{tenant}/register/v1.0/introspect"),
        (.nativeRegisterChallenge, "/{tenant}/register/v1.0/challenge"),
        (.nativeRegisterContinue, "/{tenant}/register/v1.0/continue"),
    ]

    private static let byEndpoint: [Endpoint: String] = Dictionary(uniqueKeysWithValues: paths.map { ($0.endpoint, $0.template) })

    /// The template of `endpoint`.
    package static func template(_ endpoint: Endpoint) -> String {
        guard let t = byEndpoint[endpoint] else { preconditionFailure("every Endpoint case has a row in EndpointTable.paths") }
        return t
    }

    /// The absolute URL of `endpoint` on `baseURL` (scheme://host[:port]) for the tenant segment `tenant`.
    package static func url(_ endpoint: Endpoint, baseURL: String, tenant: String = "common") -> String {
        baseURL + template(endpoint).replacingOccurrences(of: "{tenant}", with: tenant)
    }
}

extension String {
    /// Replaces every occurrence of `target` (no Foundation needed).
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = self[...]
        while let r = rest.firstRange(of: target) {
            result += rest[..<r.lowerBound]
            result += replacement
            rest = rest[r.upperBound...]
        }
        result += rest
        return result
    }
}
