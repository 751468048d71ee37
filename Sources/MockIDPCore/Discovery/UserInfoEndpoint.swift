import MockIDPJOSE

/// `/oidc/userinfo`: the signed-in user's profile for an access token this provider issued to a user.
package struct UserInfoEndpoint {
    let clock: ProviderClock

    /// The user's claims for the bearer token, or the 401 Graph gives a token it does not take.
    package func answer(bearerToken: String?, directory: Directory) -> Result<JSONValue, OAuthError> {
        guard let bearerToken else { return .failure(.invalidAccessToken("no bearer token")) }
        guard let jws = try? CompactJWS(bearerToken) else { return .failure(.invalidAccessToken("the token is not a JWT")) }
        guard let kid = jws.header["kid"]?.stringValue, let key = directory.signingKeys.first(where: { $0.keyID == kid }),
              jws.verify(with: key.certificate.publicKey) else {
            return .failure(.invalidAccessToken("the token was not signed by this server"))
        }
        let claims = jws.payload
        guard let exp = claims["exp"]?.intValue, exp > clock.now() else { return .failure(.invalidAccessToken("the token has expired")) }
        // Entra: userinfo is part of Microsoft Graph and takes only access tokens whose audience is Graph; a token for
        // another API (or an ID token) gets 401 (learn.microsoft.com, "Microsoft identity platform UserInfo endpoint").
        guard let audience = claims["aud"]?.stringValue, Cloud.graphAudiences.contains(audience.lowercased()) else {
            return .failure(.invalidAccessToken("the token's audience is not Microsoft Graph"))
        }
        guard claims["scp"] != nil, let oid = claims["oid"]?.stringValue, let tid = claims["tid"]?.stringValue,
              let tenant = directory.tenant(tid), let user = directory.user(objectID: oid, in: tenant) else {
            return .failure(.invalidAccessToken("the token does not belong to a signed-in user"))
        }
        let client = claims["azp"]?.stringValue ?? claims["appid"]?.stringValue ?? ""
        // Entra: `sub` always; the name claims and `picture` only with the `profile` scope, `email` only with
        // `email`, read from the token's `scp` (learn.microsoft.com, "Microsoft identity platform UserInfo
        // endpoint": "openid (required), profile, email"; its example response).
        let scopes = Set(ScopeRequest.words(claims["scp"]?.stringValue ?? ""))
        var info = JSONObject()
        info["sub"] = .string(TokenFactory.pairwiseSubject(objectID: user.objectID, appID: client))
        if scopes.contains("profile") {
            if let name = user.name {
                info["name"] = .string(name)
                let parts = name.split(separator: " ", maxSplits: 1)
                if parts.count == 2 {
                    info["family_name"] = .string(String(parts[1]))
                    info["given_name"] = .string(String(parts[0]))
                }
            }
            info["picture"] = .string(Self.photoURL(audience: audience, cloud: tenant.cloud))
        }
        if scopes.contains("email"), let email = user.email { info["email"] = .string(email) }
        return .success(.object(info))
    }

    /// UserInfo's `picture`: the user's photo on Microsoft Graph in the token's cloud, the Graph host the token
    /// names when its audience is a URI, else the tenant's cloud's (learn.microsoft.com, "Microsoft identity platform
    /// UserInfo endpoint": `"picture": "https://graph.microsoft.com/v1.0/me/photo/$value"`).
    package static func photoURL(audience: String, cloud: CloudName) -> String {
        var graph = audience.lowercased().hasPrefix("https://") ? Substring(audience.lowercased()) : Substring(Cloud.named(cloud).graphResource)
        while graph.hasSuffix("/") { graph = graph.dropLast() }
        return graph + "/v1.0/me/photo/$value"
    }
}
