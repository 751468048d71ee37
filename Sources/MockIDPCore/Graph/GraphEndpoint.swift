import MockIDPJOSE

/// Microsoft Graph's directory slice (docs/graph.md, "Microsoft Graph"): the calls client
/// code makes right after a sign-in, behind Graph's token and permission checks.
package struct GraphEndpoint {
    let clock: ProviderClock

    /// Answers `request`, in Graph's order: the bearer token, the path, the permission, the query options, the call.
    package func answer(_ request: GraphRequest, context: RequestScope) -> Result<GraphResponse, OAuthError> {
        let directory = context.directory
        let caller: GraphCaller
        switch graphCaller(request.bearerToken, directory: directory, context: context) {
        case .success(let c): caller = c
        case .failure(let e): return .failure(e)
        }
        let operation: GraphOperation
        switch GraphOperation.route(request.segments) {
        case .success(let o): operation = o
        case .failure(let e): return .failure(e)
        }
        let path = "/\(request.version)/" + request.segments.joined(separator: "/")
        guard request.method == operation.method || (request.method == "HEAD" && operation.method == "GET") else {
            return .failure(.graphMethodNotAllowed(request.method, path: path))
        }
        // `me` needs a user: Graph refuses an app-only `me` before anything else.
        if operation.subject == .me, !caller.isDelegated { return .failure(.graphMeNeedsUser()) }
        let subject = resolve(operation.subject, caller: caller, directory: directory)
        let aboutSelf = subject.map { caller.userObjectID == $0?.objectID } ?? false
        let rule = GraphPermissionRule.rule(for: operation)
        guard rule.allows(caller.permissions, delegated: caller.isDelegated, aboutSelf: aboutSelf) else {
            return .failure(.graphPermissionDenied(needs: rule.described(delegated: caller.isDelegated, aboutSelf: aboutSelf),
                                                   holds: caller.permissions.sorted()))
        }
        var call = GraphCall(request: request, caller: caller, directory: directory, origin: context.baseURL, path: path)
        if let subject {
            guard let user = subject else { return .failure(.graphResourceNotFound(operation.subjectName ?? "")) }
            call.user = user
        }
        return call.answer(operation)
    }

    /// The user a call is about: nil when it is about none, `.some(nil)` when no such user exists.
    private func resolve(_ subject: GraphOperation.Subject?, caller: GraphCaller, directory: Directory) -> User?? {
        switch subject {
        case nil: return nil
        case .me?: return .some(caller.userObjectID.flatMap { directory.user(objectID: $0, in: caller.tenant) })
        case .user(let id)?:
            // Graph: `users/{id | userPrincipalName}`.
            if GUID.isValid(id) { return .some(directory.user(objectID: id, in: caller.tenant)) }
            return .some(caller.tenant.users.first { $0.username.lowercased() == id.lowercased() })
        }
    }

    /// The token's caller, checked as Graph checks it: a JWT, signed by this server, for Graph (its app ID or the
    /// Graph URL of the token's cloud), unexpired, of a tenant this server has, in the cloud whose Graph host the
    /// request came to.
    func graphCaller(_ token: String?, directory: Directory, context: RequestScope) -> Result<GraphCaller, OAuthError> {
        guard let token, !token.isEmpty else { return .failure(.graphTokenMissing()) }
        guard let jws = try? CompactJWS(token) else { return .failure(.graphTokenMalformed()) }
        guard let kid = jws.header["kid"]?.stringValue, let key = directory.signingKeys.first(where: { $0.keyID == kid }),
              jws.verify(with: key.certificate.publicKey) else {
            return .failure(.graphTokenInvalid("", why: "its signature is not by this server's keys"))
        }
        let claims = jws.payload
        guard let audience = claims["aud"]?.stringValue, Cloud.graphAudiences.contains(audience.lowercased()) else {
            return .failure(.graphTokenInvalid("Invalid audience.",
                                               why: "its audience '\(claims["aud"]?.stringValue ?? "")' is not Microsoft Graph (an ID token, or a token for another API)"))
        }
        let now = clock.now()
        guard let exp = claims["exp"]?.intValue, exp > now, (claims["nbf"]?.intValue ?? 0) <= now else {
            return .failure(.graphTokenExpired())
        }
        guard let tid = claims["tid"]?.stringValue, let tenant = directory.tenant(tid), tenant.id == tid.lowercased() else {
            return .failure(.graphTokenInvalid("Invalid issuer.", why: "its tenant '\(claims["tid"]?.stringValue ?? "")' is not served here"))
        }
        let tenantCloud = Cloud.named(tenant.cloud)
        let hostCloud = Cloud.forGraphHost(context.host) ?? Cloud.forHost(context.host)
        if let hostCloud, hostCloud.name != tenant.cloud {
            return .failure(.graphTokenInvalid("Invalid issuer.",
                                               why: "its tenant is in the \(tenant.cloud.rawValue) cloud and the request came to \(context.host) (\(hostCloud.name.rawValue))"))
        }
        if audience.lowercased() != APIResource.graphAppID, !tenantCloud.graphAudienceURLs.contains(audience.lowercased()) {
            return .failure(.graphTokenInvalid("Invalid audience.", why: "its audience '\(audience)' is the Graph of another cloud than its tenant's (\(tenant.cloud.rawValue))"))
        }
        if let scp = claims["scp"]?.stringValue {
            guard let oid = claims["oid"]?.stringValue else {
                return .failure(.graphTokenInvalid("", why: "a delegated token without oid"))
            }
            return .success(GraphCaller(tenant: tenant, userObjectID: oid.lowercased(),
                                        permissions: Set(scp.split(separator: " ").map(String.init))))
        }
        let roles = claims["roles"]?.arrayValue?.compactMap(\.stringValue) ?? []
        return .success(GraphCaller(tenant: tenant, userObjectID: nil, permissions: Set(roles)))
    }
}

extension GraphOperation {
    /// The id or name a missing subject was asked by.
    var subjectName: String? {
        switch subject {
        case .me?: "me"
        case .user(let id)?: id
        case nil: nil
        }
    }
}
