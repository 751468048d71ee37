import MockIDPJOSE

/// `grant_type=urn:ietf:params:oauth:grant-type:device_code`: the client's polls (RFC 8628 §3.5).
struct DeviceCodeGrant: GrantHandler {
    func issue(_ call: TokenCall) throws(OAuthError) -> TokenResponse {
        let provider = call.provider
        let parameters = call.parameters
        let request = call.request
        let directory = call.directory
        let context = call.scope
        // MSAL sends the device code as both `device_code` and `code`.
        guard let deviceCode = parameters["device_code"] ?? parameters["code"] else { throw .missingParameter("device_code") }
        let clientID = try parameters.required("client_id")
        let now = provider.clock.now()
        let record = try provider.deviceCodes.poll(deviceCode, clientID: clientID, now: now)
        guard case .approved(let objectID, let username, let tenantID) = record.status,
              let tenant = directory.tenant(tenantID) else { throw .badVerificationCode() }
        let (client, authentication) = try provider.checkClient(parameters, request: request, tenant: tenant, directory: directory, context: context,
                                                       requireCredential: true)
        guard let user = directory.user(username, in: tenant), user.objectID == objectID else { throw .refreshTokenUserGone() }
        let scopes = try provider.userScopes(parameters, request: request, stored: record.scope, storedResource: record.resource,
                                    tenant: tenant, directory: directory, context: context)
        let grant = Grant(client: client, clientAuthentication: authentication, scopes: scopes, applicationResource: nil,
                          applicationResourceIdentifier: nil, issuedAt: now, authenticationMethods: ["pwd"], nonce: nil,
                          includeClientInfo: parameters["client_info"] == "1")
        return try provider.userTokenResponse(grant, user: user, tenant: tenant, directory: directory, context: context, version: request.version)
    }
}
