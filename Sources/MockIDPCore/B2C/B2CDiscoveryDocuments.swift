import MockIDPJOSE

/// A B2C policy's documents: its OpenID configuration and key set, shaped as B2C's.
extension DiscoveryDocuments {
    /// The issuer of a B2C tenant's tokens: `https://{host}/{tenant id}/v2.0/`, with B2C's trailing slash
    /// (docs/entra-behaviour.md, "B2C metadata").
    static func b2cIssuer(baseURL: String, tenantID: String) -> String { "\(baseURL)/\(tenantID)/v2.0/" }

    /// A B2C policy's OpenID configuration, shaped as B2C's (docs/entra-behaviour.md, "B2C metadata"): the policy in
    /// every endpoint, the tenant as the client named it, no device code, cloud or Graph members.
    package func b2cOpenIDConfiguration(_ authority: B2CAuthority, context: RequestScope) -> JSONValue {
        let base = context.baseURL
        func url(_ e: B2CEndpoint) -> JSONValue { .string(B2CEndpointTable.url(e, baseURL: base, authority: authority)) }
        var d = JSONObject()
        d["issuer"] = .string(Self.b2cIssuer(baseURL: base, tenantID: authority.tenant.id))
        d["authorization_endpoint"] = url(.authorize)
        d["token_endpoint"] = url(.token)
        d["end_session_endpoint"] = url(.logout)
        d["jwks_uri"] = url(.keys)
        d["response_modes_supported"] = ["query", "fragment", "form_post"]
        d["response_types_supported"] = ["code", "code id_token", "code token", "code id_token token", "id_token",
                                         "id_token token", "token", "token id_token"]
        d["scopes_supported"] = ["openid"]
        d["subject_types_supported"] = ["pairwise"]
        d["id_token_signing_alg_values_supported"] = ["RS256"]
        d["token_endpoint_auth_methods_supported"] = ["client_secret_post", "client_secret_basic"]
        d["claims_supported"] = .array((["name", "given_name", "family_name", "emails", "oid", "sub", "idp", "newUser",
                                         authority.policyClaim.rawValue, "iss", "iat", "exp", "aud", "nonce", "auth_time"])
                                        .uniqued().map { .string($0) })
        return .object(d)
    }

    /// A B2C policy's key set: `kid`, `nbf`, `use`, `kty`, `e`, `n`, without Entra's `x5t`, `x5c` and `issuer`
    /// (docs/entra-behaviour.md, "Signing keys").
    package func b2cKeySet(_ authority: B2CAuthority, directory: Directory) -> Result<JSONValue, OAuthError> {
        var keys: [JSONValue] = []
        for key in directory.signingKeys {
            guard let (modulus, exponent) = key.certificate.publicKey.rsaComponents else {
                return .failure(OAuthError(code: .serverError, message: "The key set could not be built.", status: 500,
                                           reason: "a signing key is not RSA"))
            }
            keys.append(["kid": .string(key.keyID), "nbf": .int(key.certificate.notBefore), "use": "sig", "kty": "RSA",
                         "e": .string(Base64URL.encode(exponent)), "n": .string(Base64URL.encode(modulus))])
        }
        return .success(["keys": .array(keys)])
    }
}

extension Array where Element: Hashable {
    /// The elements in order, each once.
    func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
