/// The Azure hosts whose managed-identity endpoints the server stands in for.
public enum ManagedIdentityHost: String, Sendable, CaseIterable {
    /// The instance metadata service of VMs, scale sets and AKS nodes: `GET /metadata/identity/oauth2/token`.
    case instanceMetadata
    /// App Service, Functions and Container Apps (api-version 2019-08-01): `GET /msi/token`.
    case appService
    /// Cloud Shell and older hosts: `POST /msi/token` with a form body.
    case cloudShell

    /// The name faults use for the managed-identity endpoints of every host (`Fault.endpointNames`): a fault there
    /// tests a client's retries (azure-identity retries IMDS's 404, 410, 429 and 5xx).
    package static let controlName = "managedidentity"

    /// The host in words, for errors and the request log.
    package var displayName: String {
        switch self {
        case .instanceMetadata: "instance metadata service"
        case .appService: "App Service"
        case .cloudShell: "Cloud Shell"
        }
    }
}

/// The managed-identity endpoints' paths, beside `EndpointTable`: routes and `MockIDPTesting` read them, nothing
/// else spells them. The hosts' own SDK sources name them: azure-identity's `_credentials/imds.py`
/// (`IMDS_TOKEN_PATH`), App Service's `IDENTITY_ENDPOINT` (`http://localhost:{port}/msi/token`).
package enum ManagedIdentityEndpointTable {
    /// Each host's method and path, in the order routes are registered.
    package static let paths: [(host: ManagedIdentityHost, method: String, template: String)] = [
        (.instanceMetadata, "GET", "/metadata/identity/oauth2/token"),
        (.appService, "GET", "/msi/token"),
        (.cloudShell, "POST", "/msi/token"),
    ]

    /// The absolute URL of `host`'s endpoint on `baseURL` (`scheme://host[:port]`).
    package static func url(_ host: ManagedIdentityHost, baseURL: String) -> String {
        guard let row = paths.first(where: { $0.host == host }) else {
            preconditionFailure("every ManagedIdentityHost has a row in ManagedIdentityEndpointTable.paths")
        }
        return baseURL + row.template
    }
}
