import MockIDPJOSE

/// `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer` with `requested_token_use=on_behalf_of`
/// (docs/entra-behaviour.md, "Grants"): a confidential middle-tier API exchanges the user's access token it
/// received (whose `aud` is that API) for a token to a downstream API, for the same user. The middle tier must
/// hold `apiPermissions` for the downstream scopes: there is no user to ask for consent.
struct OnBehalfOfGrant: GrantHandler {
    func issue(_ call: TokenCall) throws(OAuthError) -> TokenResponse {
        let use = try call.parameters.required("requested_token_use")
        guard use == "on_behalf_of" else { throw .unsupportedRequestedTokenUse(use) }
        let assertion = try call.parameters.required("assertion")
        let claims = try verifiedUserAssertion(assertion, directory: call.directory)
        // The tenant is the path's, or for common/organizations the one that issued the user's token.
        guard let tenantID = claims["tid"]?.stringValue, let issuingTenant = call.directory.tenant(tenantID) else {
            throw .userAssertionNotAccepted("the assertion names no tenant this server serves")
        }
        let tenant = call.authority.specificTenant ?? issuingTenant
        guard tenant.id == issuingTenant.id else {
            throw .userAssertionNotAccepted("the assertion was issued by tenant \(issuingTenant.id), not \(tenant.id)")
        }
        let (client, authentication) = try call.checkClient(tenant: tenant, requireCredential: true)
        // Entra: only a confidential client can act on behalf of a user.
        guard client.isConfidential, authentication != .none else { throw .missingClientCredential() }
        let cloud = call.scope.cloud(for: tenant)
        let v1Issuer = "https://\(cloud.v1IssuerHost)/\(tenant.id)/"
        let issuer = claims["iss"]?.stringValue ?? ""
        guard issuer == v1Issuer || issuer.hasSuffix("/\(tenant.id)/v2.0") else {
            throw .userAssertionNotAccepted("the issuer '\(issuer)' is not tenant \(tenant.id)")
        }
        let now = call.provider.clock.now()
        guard let expiry = ClientAssertion.numericDate(claims["exp"]) else { throw .malformedUserAssertion("it has no exp claim") }
        let notBefore = ClientAssertion.numericDate(claims["nbf"]) ?? 0
        guard now < expiry, notBefore <= now + ClientAssertion.clockSkew else {
            throw .userAssertionExpired(now: now, expiry: expiry)
        }
        let audience = claims["aud"]?.stringValue ?? ""
        let audienceKey = audience.lowercased()
        guard audienceKey == client.clientID || client.identifierURIs.contains(where: { $0.lowercased() == audienceKey }) else {
            throw .userAssertionAudienceMismatch(audience, client: client)
        }
        // An app-only token (client credentials) has no user to act for: Entra refuses application on-behalf-of.
        if claims["idtyp"]?.stringValue == "app" || (claims["scp"] == nil && claims["roles"] != nil) {
            throw .applicationOnBehalfOfNotAllowed(clientID: client.clientID)
        }
        guard claims["scp"]?.stringValue != nil,
              let objectID = claims["oid"]?.stringValue else {
            throw .userAssertionNotAccepted("the assertion is not a user's delegated access token (no scp, or idtyp=app)")
        }
        guard let user = call.directory.user(objectID: objectID, in: tenant) else {
            throw .unknownUser(objectID, tenant: tenant.displayName)
        }
        guard let scope = call.parameters["scope"] ?? v1ResourceScope(call.parameters, request: call.request) else {
            throw .missingParameter("scope")
        }
        let scopes = try ScopeRequest(scope, tenant: tenant, directory: call.directory, graphResource: cloud.graphResource)
        try checkConsent(client: client, scopes: scopes, graphResource: cloud.graphResource)
        // A middle tier with `consentRequired`: the user must also have consented to its downstream permissions
        // (Microsoft Learn, On-Behalf-Of flow, "Gaining consent for the middle-tier application": else AADSTS65001).
        try call.provider.consentPolicy.checkUserConsent(client: client, user: user, tenant: tenant, scopes: scopes, scope: call.scope)
        let methods = claims["amr"]?.arrayValue?.compactMap(\.stringValue) ?? ["pwd"]
        let grant = Grant(client: client, clientAuthentication: authentication, scopes: scopes,
                          applicationResource: nil, applicationResourceIdentifier: nil, issuedAt: now,
                          authenticationMethods: methods, nonce: nil, includeClientInfo: call.parameters["client_info"] == "1")
        return try call.userTokenResponse(grant, user: user, tenant: tenant)
    }

    /// The claims of a token this server signed (with any published key), after checking the signature.
    private func verifiedUserAssertion(_ assertion: String, directory: Directory) throws(OAuthError) -> JSONObject {
        let jws: CompactJWS
        do {
            jws = try CompactJWS(assertion)
        } catch {
            throw .malformedUserAssertion(error.reason)
        }
        let keyID = jws.header["kid"]?.stringValue ?? jws.header["x5t"]?.stringValue ?? ""
        guard let key = directory.signingKeys.first(where: { $0.keyID == keyID }) else {
            throw .userAssertionSignatureInvalid(keyID: keyID, keyFound: false)
        }
        guard jws.algorithm == .rs256, jws.verify(with: key.certificate.publicKey) else {
            throw .userAssertionSignatureInvalid(keyID: keyID, keyFound: true)
        }
        return jws.payload
    }

    /// Entra: on-behalf-of cannot show a consent page, so the middle tier's permissions on the downstream API must
    /// already cover what it asks for; `.default` asks for all of them, and there must be some (AADSTS65001).
    private func checkConsent(client: Application, scopes: ScopeRequest, graphResource: String) throws(OAuthError) {
        let granted = client.apiPermissions.filter { scopes.resource.isNamed($0.resource, graphResource: graphResource) }
            .flatMap(\.values)
        if scopes.isDefault {
            guard granted.contains(where: { scopes.resource.exposesScope($0) }) else {
                throw .consentRequired(client: client, scopes: scopes.requested)
            }
        } else {
            let missing = scopes.apiScopes.filter { !granted.contains($0) }
            guard missing.isEmpty else { throw .consentRequired(client: client, scopes: missing) }
        }
    }

    /// v1 requests (ADAL) name an API by `resource`, which stands for `{resource}/.default`; nil otherwise.
    private func v1ResourceScope(_ parameters: TokenParameters, request: TokenRequest) -> String? {
        guard request.version == .v1, let resource = parameters["resource"] else { return nil }
        return resource.hasSuffix("/") ? resource + ".default" : resource + "/.default"
    }
}
