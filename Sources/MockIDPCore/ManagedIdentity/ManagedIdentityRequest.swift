/// A token request to a managed-identity endpoint, as the HTTP layer read it.
package struct ManagedIdentityRequest: Sendable {
    /// The host the request came to.
    package var host: ManagedIdentityHost
    /// The query (GET) or form (POST) parameters, in order, as sent.
    package var parameters: [(name: String, value: String)]
    /// The `Metadata` header, when sent.
    package var metadataHeader: String?
    /// The `X-IDENTITY-HEADER` header, when sent.
    package var identityHeader: String?

    /// A request to `host` with these parameters and headers.
    package init(host: ManagedIdentityHost, parameters: [(name: String, value: String)], metadataHeader: String?,
                 identityHeader: String?) {
        self.host = host
        self.parameters = parameters
        self.metadataHeader = metadataHeader
        self.identityHeader = identityHeader
    }

    /// The parameters that name an identity at this host, with the selector each makes. IMDS: `client_id`,
    /// `object_id`, `msi_res_id` (Microsoft Learn, how-to-use-vm-token); App Service: `client_id`, `principal_id`
    /// (alias `object_id`), `mi_res_id` (Microsoft Learn, App Service managed identity, REST endpoint reference);
    /// MSAL Python's `managed_identity.py` sends these names.
    var selectorNames: [(name: String, make: @Sendable (String) -> ManagedIdentitySelector)] {
        switch host {
        case .instanceMetadata, .cloudShell:
            [("client_id", { .clientID($0) }), ("object_id", { .objectID($0) }), ("msi_res_id", { .resourceID($0) })]
        case .appService:
            [("client_id", { .clientID($0) }), ("principal_id", { .objectID($0) }), ("object_id", { .objectID($0) }),
             ("mi_res_id", { .resourceID($0) })]
        }
    }
}
