import MockIDPJOSE

/// What the `/devicelogin` page needs to know of a user code.
package struct DeviceLoginRequest: Sendable {
    package var userCode: String
    package var client: Application
    package var tenantSegment: String
    package var scope: String
}

extension IdentityProvider {
    /// Entra's device code lifetime and polling interval (reference/entra-protocol.md §4.1).
    static let deviceCodeLifetime = 900
    static let deviceCodeInterval = 5
    /// User codes avoid letters and digits that are easily confused.
    static let userCodeAlphabet = Array("BCDFGHJKLMNPQRSTVWXZ23456789")

    /// `/{tenant}/oauth2/v2.0/devicecode`: starts a device code flow (RFC 8628 §3.2). The v1 endpoint
    /// (`/oauth2/devicecode`, ADAL) takes `resource` and answers `verification_url` instead of `verification_uri`.
    package func deviceAuthorization(tenant segment: String, parameters: [(name: String, value: String)],
                                    version: ProtocolVersion = .v2, context: RequestContext) -> Result<JSONValue, OAuthError> {
        do throws(OAuthError) {
            let p = try TokenParameters(TokenRequest(tenant: segment, parameters: parameters))
            let directory = directory(for: context)
            guard let authority = Authority(segment: segment, directory: directory) else {
                throw .tenantNotFound(segment, forDiscovery: false)
            }
            // B2C has no device code flow (its metadata has no device_authorization_endpoint, §1.3).
            if case .failure(let error) = context.dialect ?? b2cAuthority(tenantSegment: segment, policy: nil, form: .path) { throw error }
            let clientID = try p.required("client_id")
            guard let client = authorizationClient(clientID, authority: authority, directory: directory) else {
                throw .unknownClient(clientID, tenant: segment)
            }
            let scope: String
            if version == .v1, let resource = p["resource"] {
                scope = "openid offline_access " + ScopeRequest.v1DefaultScope(resource)
            } else {
                scope = try p.required(version == .v1 ? "resource" : "scope")
            }
            // Kept until the code expires, so refused before anything is stored when longer than a code keeps.
            guard scope.utf8.count <= ScopeRequest.maximumLength else { throw .scopeTooLong(scope, limit: ScopeRequest.maximumLength) }
            if let tenant = authority.specificTenant ?? homeTenant(of: client, directory: directory) {
                _ = try ScopeRequest(scope, tenant: tenant, directory: directory, graphResource: Cloud.named(tenant.cloud).graphResource)
            }
            let deviceCode = "DAQABAAEAAAD" + Base64URL.encode(random.bytes(48))
            let userCode = String(random.bytes(9).map { Self.userCodeAlphabet[Int($0) % Self.userCodeAlphabet.count] })
            let now = clock.now()
            let record = DeviceAuthorization(userCode: userCode, clientID: client.clientID, tenantSegment: segment, scope: scope,
                                             expiresAt: now + Self.deviceCodeLifetime, interval: Self.deviceCodeInterval,
                                             lastPoll: nil, status: .pending, resource: version == .v1 ? p["resource"] : nil)
            deviceCodes.withLock { $0.insert(deviceCode: deviceCode, record, now: now) }
            let verification = EndpointTable.url(.deviceLogin, baseURL: context.baseURL)
            // Entra (v1): ADAL reads `verification_url` (reference §4.1).
            return .success([
                "user_code": .string(userCode), "device_code": .string(deviceCode),
                version == .v1 ? "verification_url" : "verification_uri": .string(verification),
                "expires_in": .int(Self.deviceCodeLifetime), "interval": .int(Self.deviceCodeInterval),
                "message": .string("To sign in, use a web browser to open the page \(verification) and enter the code \(userCode) to authenticate."),
            ])
        } catch {
            return .failure(error)
        }
    }

    /// The pending request for a user code typed at `/devicelogin`, or nil when it is unknown, used or expired.
    package func deviceLogin(userCode: String) -> DeviceLoginRequest? {
        let code = userCode.uppercased().filter { !$0.isWhitespace && $0 != "-" }
        let now = clock.now()
        guard let (_, record) = deviceCodes.withLock({ s -> (String, DeviceAuthorization)? in
            guard let d = s.deviceCode(forUserCode: code), let r = s[deviceCode: d] else { return nil }
            return (d, r)
        }), case .pending = record.status, record.expiresAt > now else { return nil }
        let directory = snapshot()
        guard let authority = Authority(segment: record.tenantSegment, directory: directory),
              let client = authorizationClient(record.clientID, authority: authority, directory: directory) else { return nil }
        return DeviceLoginRequest(userCode: code, client: client, tenantSegment: record.tenantSegment, scope: record.scope)
    }

    /// The user at `/devicelogin` signed in (`user` set) or declined (`user` nil).
    package func completeDeviceLogin(userCode: String, user: User?, tenant: Tenant?) {
        deviceCodes.withLock { s in
            guard let d = s.deviceCode(forUserCode: userCode), var r = s[deviceCode: d],
                  case .pending = r.status else { return }
            if let user, let tenant {
                r.status = .approved(userObjectID: user.objectID, username: user.username, tenantID: tenant.id)
            } else {
                r.status = .declined
            }
            s[deviceCode: d] = r
        }
    }

    /// `grant_type=urn:ietf:params:oauth:grant-type:device_code`: the client's polls (RFC 8628 §3.5).
    func deviceCodeGrant(_ parameters: TokenParameters, request: TokenRequest, authority: Authority,
                         directory: Directory, context: RequestContext) throws(OAuthError) -> TokenResponse {
        // MSAL sends the device code as both `device_code` and `code`.
        guard let deviceCode = parameters["device_code"] ?? parameters["code"] else { throw .missingParameter("device_code") }
        let clientID = try parameters.required("client_id")
        let now = clock.now()
        let record: DeviceAuthorization = try deviceCodes.withLock { (s: inout DeviceCodeStore) throws(OAuthError) -> DeviceAuthorization in
            guard var r = s[deviceCode: deviceCode], r.clientID == clientID.lowercased() else { throw .badVerificationCode() }
            let previous = r.lastPoll
            r.lastPoll = now
            s[deviceCode: deviceCode] = r
            guard now < r.expiresAt else { throw .deviceCodeExpired() }
            switch r.status {
            case .pending:
                // Polling twice within a second is too fast even for MSAL's rounding of the interval.
                if let previous, now - previous < 1 { throw .slowDown() }
                throw .authorizationPending()
            case .declined: throw .deviceAuthorizationDeclined()
            case .redeemed: throw .badVerificationCode()
            case .approved:
                // Spent: only what a later poll reads is kept until it expires (the grant goes with the user's ids).
                var spent = r
                spent.status = .redeemed
                spent.scope = ""
                spent.resource = nil
                s[deviceCode: deviceCode] = spent
                return r
            }
        }
        guard case .approved(let objectID, let username, let tenantID) = record.status,
              let tenant = directory.tenant(tenantID) else { throw .badVerificationCode() }
        let (client, authentication) = try checkClient(parameters, request: request, tenant: tenant, directory: directory, context: context,
                                                       requireCredential: true)
        guard let user = directory.user(username, in: tenant), user.objectID == objectID else { throw .refreshTokenUserGone() }
        let scopes = try userScopes(parameters, request: request, stored: record.scope, storedResource: record.resource,
                                    tenant: tenant, directory: directory, context: context)
        let grant = Grant(client: client, clientAuthentication: authentication, scopes: scopes, applicationResource: nil,
                          applicationResourceIdentifier: nil, issuedAt: now, authenticationMethods: ["pwd"], nonce: nil,
                          includeClientInfo: parameters["client_info"] == "1")
        return try userTokenResponse(grant, user: user, tenant: tenant, directory: directory, context: context, version: request.version)
    }
}
