import MockIDPJOSE

extension AuthorizeEndpoint {
    /// The ID and access tokens of a B2C implicit or hybrid response (`c_hash` / `at_hash` as OpenID Connect §3.3.2.11).
    func b2cImplicitTokens(_ request: ValidatedAuthorization, b2c: B2CAuthority, user: User, authTime: Int, code: String?,
                           newUser: Bool, context: RequestScope) throws(OAuthError) -> [(name: String, value: String)] {
        let scopes = try B2CScopeRequest(request.scope, client: request.client, tenant: b2c.tenant, directory: context.directory)
        let grant = B2CGrant(client: request.client, authority: b2c, scopes: scopes, issuedAt: provider.clock.now(), authTime: authTime,
                             nonce: request.nonce, newUser: newUser, includeClientInfo: false)
        let factory = provider.frontChannelTokenFactory(context.directory, context, tenant: b2c.tenant, clientID: request.client.clientID)
        return try Self.frontChannelTokens(request, code: code, lifetime: factory.lifetime,
                                      accessToken: { () throws(OAuthError) in
                                          try scopes.audience.map { audience throws(OAuthError) in
                                              try factory.b2cAccessToken(grant, user: user, audience: audience)
                                          }
                                      },
                                      idToken: { hashes throws(OAuthError) in try factory.b2cIDToken(grant, user: user, hashes: hashes) })
    }
}
