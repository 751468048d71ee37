import MockIDPJOSE

/// The managed identity endpoints of Azure's hosts (IMDS, App Service, Cloud Shell): each host's checks in its order,
/// then an app-only token for the identity.
package struct ManagedIdentityEndpoint {
    let provider: IdentityProvider

    /// IMDS serves identity tokens from this api-version on (Microsoft Learn, how-to-use-vm-token: "Use API version
    /// `2018-02-01` or greater"); azure-identity and MSAL send it.
    static let oldestIMDSAPIVersion = "2018-02-01"
    /// The App Service protocol with `X-IDENTITY-HEADER` (Microsoft Learn, App Service managed identity, REST
    /// endpoint reference: "Use `2019-08-01`"); the older `2017-09-01` used a `secret` header instead.
    static let appServiceAPIVersion = "2019-08-01"

    /// A managed identity's token, as the host of `request` answers: the checks in the host's order (its SSRF
    /// header first, then the parameters, the identity, the resource), then an app-only access token for the
    /// resource signed with the identity's tenant's key, in the version the resource accepts. `identityHeader` is the
    /// App Service secret (`--identity-header`).
    package func token(_ request: ManagedIdentityRequest, identityHeader: String,
                                      context: RequestScope) -> Result<JSONValue, OAuthError> {
        do throws(OAuthError) {
            return .success(try issueManagedIdentityToken(request, identityHeader: identityHeader, context: context))
        } catch {
            return .failure(error)
        }
    }

    private func issueManagedIdentityToken(_ request: ManagedIdentityRequest, identityHeader: String,
                                           context: RequestScope) throws(OAuthError) -> JSONValue {
        let host = request.host
        try checkHostHeader(request, identityHeader: identityHeader)
        let parameters = try Self.singleValued(request.parameters, host: host)
        try checkAPIVersion(parameters["api-version"], host: host)
        guard let resource = parameters["resource"], !resource.isEmpty else { throw .managedIdentityParameterMissing("resource", host: host) }
        let selector = try Self.selector(request, parameters)
        let directory = context.directory
        guard let (identity, tenant) = directory.managedIdentity(selector) else { throw .managedIdentityNotFound(selector, host: host) }
        let scopes = try ScopeRequest(v1Resource: resource, tenant: tenant, directory: directory,
                                      graphResource: Cloud.named(tenant.cloud).graphResource)
        // Managed identities authenticate to Entra with a certificate the platform holds: `appidacr`/`azpacr` "2".
        let grant = Grant(client: Application(clientID: identity.clientID), clientAuthentication: .certificate, scopes: nil,
                          applicationResource: scopes.resource, applicationResourceIdentifier: scopes.resourceIdentifier,
                          issuedAt: provider.clock.now(), authenticationMethods: [], nonce: nil, includeClientInfo: false)
        let factory = provider.tokenFactory(directory, context, tenant: tenant, clientID: identity.clientID, username: nil)
        let token = try factory.applicationAccessToken(grant, roles: [], tenant: tenant, managedIdentity: identity)
        let issuedAt = grant.issuedAt, lifetime = factory.lifetime
        // Numbers as strings, in each host's fields and order: IMDS (how-to-use-vm-token's sample response, with
        // `client_id` and `ext_expires_in` as IMDS sends them today), App Service (its REST endpoint reference).
        var body = JSONObject()
        body["access_token"] = .string(token)
        switch host {
        case .instanceMetadata, .cloudShell:
            body["client_id"] = .string(identity.clientID)
            body["expires_in"] = .string(String(lifetime))
            body["expires_on"] = .string(String(issuedAt + lifetime))
            body["ext_expires_in"] = .string(String(lifetime))
            body["not_before"] = .string(String(issuedAt))
            body["resource"] = .string(resource)
            body["token_type"] = "Bearer"
        case .appService:
            body["expires_on"] = .string(String(issuedAt + lifetime))
            body["resource"] = .string(resource)
            body["token_type"] = "Bearer"
            body["client_id"] = .string(identity.clientID)
        }
        return .object(body)
    }

    /// The host's guard against server-side request forgery: `Metadata: true` (IMDS, Cloud Shell), or App Service's
    /// `X-IDENTITY-HEADER` secret.
    private func checkHostHeader(_ request: ManagedIdentityRequest, identityHeader: String) throws(OAuthError) {
        switch request.host {
        case .instanceMetadata, .cloudShell:
            // Microsoft Learn: "This value must be set to "true", in all lower case."
            guard request.metadataHeader == "true" else { throw .metadataHeaderRequired(sent: request.metadataHeader) }
        case .appService:
            guard let sent = request.identityHeader, sent.isSameSecret(as: identityHeader) else {
                throw .identityHeaderMismatch(sent: request.identityHeader != nil)
            }
        }
    }

    /// IMDS: `api-version` is required and at least 2018-02-01; App Service: `2019-08-01`; Cloud Shell sends none.
    private func checkAPIVersion(_ version: String?, host: ManagedIdentityHost) throws(OAuthError) {
        switch host {
        case .cloudShell:
            return
        case .instanceMetadata:
            guard let version, !version.isEmpty else { throw .managedIdentityParameterMissing("api-version", host: host) }
            guard Self.isDate(version), version >= Self.oldestIMDSAPIVersion else {
                throw .managedIdentityParameterInvalid("api-version", "'\(version)' is not an api-version of the identity endpoint (use \(Self.oldestIMDSAPIVersion) or later)", host: host)
            }
        case .appService:
            guard let version, !version.isEmpty else { throw .managedIdentityParameterMissing("api-version", host: host) }
            guard version == Self.appServiceAPIVersion else {
                throw .managedIdentityParameterInvalid("api-version", "'\(version)' is not served; use \(Self.appServiceAPIVersion) with X-IDENTITY-HEADER", host: host)
            }
        }
    }

    /// `YYYY-MM-DD`.
    private static func isDate(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 10 else { return false }
        return bytes.enumerated().allSatisfy { i, b in i == 4 || i == 7 ? b == UInt8(ascii: "-") : b >= 0x30 && b <= 0x39 }
    }

    /// The parameters by name; one given twice is refused (how-to-use-vm-token: "includes a parameter more than once").
    private static func singleValued(_ parameters: [(name: String, value: String)],
                                     host: ManagedIdentityHost) throws(OAuthError) -> [String: String] {
        var values: [String: String] = [:]
        for (name, value) in parameters {
            guard values.updateValue(value, forKey: name) == nil else {
                throw .managedIdentityParameterInvalid(name, "is given more than once", host: host)
            }
        }
        return values
    }

    /// The identity the request names, by one parameter at most (App Service's reference: `client_id`
    /// "Cannot be used on a request that includes `principal_id`, `mi_res_id`, or `object_id`"); none: the
    /// system-assigned identity.
    private static func selector(_ request: ManagedIdentityRequest,
                                 _ parameters: [String: String]) throws(OAuthError) -> ManagedIdentitySelector {
        var named: [(name: String, selector: ManagedIdentitySelector)] = []
        for (name, make) in request.selectorNames {
            guard let value = parameters[name] else { continue }
            guard !value.isEmpty else { throw .managedIdentityParameterInvalid(name, "is empty", host: request.host) }
            named.append((name, make(value)))
        }
        guard named.count <= 1 else {
            throw .managedIdentityParameterInvalid(named[1].name, "cannot be combined with '\(named[0].name)': name the identity one way",
                                                   host: request.host)
        }
        return named.first?.selector ?? .systemAssigned
    }
}
