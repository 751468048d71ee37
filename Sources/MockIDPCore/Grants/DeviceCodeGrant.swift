import MockIDPJOSE

/// `grant_type=urn:ietf:params:oauth:grant-type:device_code`: the client's polls (RFC 8628 §3.5).
struct DeviceCodeGrant: GrantHandler {
    func issue(_ call: TokenCall) throws(OAuthError) -> TokenResponse {
        // MSAL sends the device code as both `device_code` and `code`.
        guard let deviceCode = call.parameters["device_code"] ?? call.parameters["code"] else { throw .missingParameter("device_code") }
        let clientID = try call.parameters.required("client_id")
        let now = call.provider.clock.now()
        let record = try call.provider.deviceCodes.poll(deviceCode, clientID: clientID, now: now)
        guard case .approved(let objectID, let username, let tenantID) = record.status,
              let tenant = call.directory.tenant(tenantID) else { throw .badVerificationCode() }
        let (client, authentication) = try call.checkClient(tenant: tenant, requireCredential: true)
        guard let user = call.directory.user(username, in: tenant), user.objectID == objectID else { throw .refreshTokenUserGone() }
        let scopes = try call.userScopes(stored: record.scope, storedResource: record.resource, tenant: tenant)
        let grant = Grant(client: client, clientAuthentication: authentication, scopes: scopes, applicationResource: nil,
                          applicationResourceIdentifier: nil, issuedAt: now, authenticationMethods: ["pwd"], nonce: nil,
                          includeClientInfo: call.parameters["client_info"] == "1")
        return try call.userTokenResponse(grant, user: user, tenant: tenant)
    }
}
