import MockIDPJOSE

/// What the `/devicelogin` page needs to know of a user code.
package struct DeviceLoginRequest: Sendable {
    package var userCode: String
    package var client: Application
    package var tenantSegment: String
    package var scope: String
}

/// The device code flow (RFC 8628) before its token step (`DeviceCodeGrant`): the device authorization endpoint,
/// and what the `/devicelogin` page reads and decides.
package struct DeviceFlow {
    let provider: IdentityProvider

    /// Entra's device code lifetime and polling interval (docs/entra-behaviour.md, "Token responses").
    static let deviceCodeLifetime = 900
    static let deviceCodeInterval = 5
    /// User codes avoid letters and digits that are easily confused.
    static let userCodeAlphabet = Array("BCDFGHJKLMNPQRSTVWXZ23456789")

    /// `/{tenant}/oauth2/v2.0/devicecode`: starts a device code flow (RFC 8628 §3.2). The v1 endpoint
    /// (`/oauth2/devicecode`, ADAL) takes `resource` and answers `verification_url` instead of `verification_uri`.
    package func deviceAuthorization(tenant segment: String, parameters: [(name: String, value: String)],
                                    version: ProtocolVersion = .v2, context: RequestScope) -> Result<JSONValue, OAuthError> {
        do throws(OAuthError) {
            let p = try TokenParameters(TokenRequest(tenant: segment, parameters: parameters))
            let directory = context.directory
            guard let authority = Authority(segment: segment, directory: directory) else {
                throw .tenantNotFound(segment, forDiscovery: false)
            }
            let clientID = try p.required("client_id")
            guard let client = directory.authorizationClient(clientID, authority: authority) else {
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
            if let tenant = authority.specificTenant ?? directory.homeTenant(of: client) {
                _ = try ScopeRequest(scope, tenant: tenant, directory: directory, graphResource: Cloud.named(tenant.cloud).graphResource)
            }
            let deviceCode = "DAQABAAEAAAD" + Base64URL.encode(provider.random.bytes(48))
            let userCode = String(provider.random.bytes(9).map { Self.userCodeAlphabet[Int($0) % Self.userCodeAlphabet.count] })
            let now = provider.clock.now()
            let record = DeviceAuthorization(userCode: userCode, clientID: client.clientID, tenantSegment: segment, scope: scope,
                                             expiresAt: now + Self.deviceCodeLifetime, interval: Self.deviceCodeInterval,
                                             lastPoll: nil, status: .pending, resource: version == .v1 ? p["resource"] : nil)
            provider.deviceCodes.insert(deviceCode: deviceCode, record, now: now)
            let verification = EndpointTable.url(.deviceLogin, baseURL: context.baseURL)
            // Entra (v1): ADAL reads `verification_url` (docs/entra-behaviour.md, "Token responses").
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
    package func deviceLogin(userCode: String, directory: Directory) -> DeviceLoginRequest? {
        let code = userCode.uppercased().filter { !$0.isWhitespace && $0 != "-" }
        guard let record = provider.deviceCodes.pending(userCode: code, now: provider.clock.now()) else { return nil }
        guard let authority = Authority(segment: record.tenantSegment, directory: directory),
              let client = directory.authorizationClient(record.clientID, authority: authority) else { return nil }
        return DeviceLoginRequest(userCode: code, client: client, tenantSegment: record.tenantSegment, scope: record.scope)
    }

    /// The user at `/devicelogin` signed in (`user` set) or declined (`user` nil).
    package func completeDeviceLogin(userCode: String, user: User?, tenant: Tenant?) {
        let approval = user.flatMap { user in tenant.map { (userObjectID: user.objectID, username: user.username, tenantID: $0.id) } }
        provider.deviceCodes.decide(userCode: userCode, approval: approval)
    }
}
