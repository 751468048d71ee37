import MockIDPJOSE

extension IdentityProvider {
    /// `/oidc/userinfo`: the signed-in user's profile for an access token this provider issued to a user.
    package func userInfo(bearerToken: String?) -> Result<JSONValue, OAuthError> {
        guard let bearerToken else { return .failure(.invalidAccessToken("no bearer token")) }
        guard let jws = try? CompactJWS(bearerToken) else { return .failure(.invalidAccessToken("the token is not a JWT")) }
        let directory = snapshot()
        guard let kid = jws.header["kid"]?.stringValue, let key = directory.signingKeys.first(where: { $0.keyID == kid }),
              jws.verify(with: key.certificate.publicKey) else {
            return .failure(.invalidAccessToken("the token was not signed by this server"))
        }
        let claims = jws.payload
        guard let exp = claims["exp"]?.intValue, exp > clock.now() else { return .failure(.invalidAccessToken("the token has expired")) }
        guard claims["scp"] != nil, let oid = claims["oid"]?.stringValue, let tid = claims["tid"]?.stringValue,
              let tenant = directory.tenant(tid), let user = directory.user(objectID: oid, in: tenant) else {
            return .failure(.invalidAccessToken("the token does not belong to a signed-in user"))
        }
        let client = claims["azp"]?.stringValue ?? claims["appid"]?.stringValue ?? ""
        var info = JSONObject()
        info["sub"] = .string(TokenFactory.pairwiseSubject(objectID: user.objectID, appID: client))
        if let name = user.name {
            info["name"] = .string(name)
            let parts = name.split(separator: " ", maxSplits: 1)
            if parts.count == 2 {
                info["family_name"] = .string(String(parts[1]))
                info["given_name"] = .string(String(parts[0]))
            }
        }
        if let email = user.email { info["email"] = .string(email) }
        return .success(.object(info))
    }
}
