/// An Azure service whose API every tenant has, as Graph is: its well-known application ID and the identifiers
/// (App ID URIs) clients name it by in each cloud. Entra issues v1 access tokens for them, whose `aud` is the
/// resource as the client wrote it.
///
/// App IDs: the first-party service principals every tenant holds (Azure Resource Manager 797f4846…, Azure Key Vault
/// cfa8b339…, Azure Storage e406a681…, Azure SQL Database 022907d3…, Microsoft.ServiceBus 80a10ef9…,
/// Microsoft.EventHubs 80369ed6…). Identifiers per cloud: Microsoft Learn, "Azure services that support Microsoft
/// Entra authentication" and the sovereign-cloud endpoint tables (azure-identity's and the SDKs' default scopes).
struct AzureResource: Sendable, Equatable {
    /// The service's application ID.
    let appID: String
    /// What the service is called.
    let name: String
    /// Identifiers by cloud, without a trailing slash (a trailing slash names the same resource).
    let identifiers: [CloudName: [String]]

    static let resourceManager = AzureResource(appID: "797f4846-ba00-4fd7-ba43-dac1f8f63013", name: "Azure Resource Manager", identifiers: [
        .public: ["https://management.azure.com", "https://management.core.windows.net"],
        .usgov: ["https://management.usgovcloudapi.net", "https://management.core.usgovcloudapi.net"],
        .china: ["https://management.chinacloudapi.cn", "https://management.core.chinacloudapi.cn"],
        .germany: ["https://management.microsoftazure.de", "https://management.core.cloudapi.de"],
    ])
    static let keyVault = AzureResource(appID: "cfa8b339-82a2-471a-a3c9-0fc0be7a4093", name: "Azure Key Vault", identifiers: [
        .public: ["https://vault.azure.net"], .usgov: ["https://vault.usgovcloudapi.net"],
        .china: ["https://vault.azure.cn"], .germany: ["https://vault.microsoftazure.de"],
    ])
    static let storage = AzureResource(appID: "e406a681-f3d4-42a8-90b6-c2b029497af1", name: "Azure Storage", identifiers: [
        .public: ["https://storage.azure.com"], .usgov: ["https://storage.azure.com"],
        .china: ["https://storage.azure.com"], .germany: ["https://storage.azure.com"],
    ])
    static let sqlDatabase = AzureResource(appID: "022907d3-0f1b-48f7-badc-1ba6abab6d66", name: "Azure SQL Database", identifiers: [
        .public: ["https://database.windows.net"], .usgov: ["https://database.usgovcloudapi.net"],
        .china: ["https://database.chinacloudapi.cn"], .germany: ["https://database.cloudapi.de"],
    ])
    static let serviceBus = AzureResource(appID: "80a10ef9-8168-493d-abf9-3297c4ef6e3c", name: "Azure Service Bus", identifiers: [
        .public: ["https://servicebus.azure.net"], .usgov: ["https://servicebus.azure.net", "https://servicebus.usgovcloudapi.net"],
        .china: ["https://servicebus.azure.net", "https://servicebus.chinacloudapi.cn"], .germany: ["https://servicebus.azure.net"],
    ])
    static let eventHubs = AzureResource(appID: "80369ed6-5f11-4dd9-bef3-692475845e77", name: "Azure Event Hubs", identifiers: [
        .public: ["https://eventhubs.azure.net"], .usgov: ["https://eventhubs.azure.net", "https://eventhubs.usgovcloudapi.net"],
        .china: ["https://eventhubs.azure.net", "https://eventhubs.chinacloudapi.cn"], .germany: ["https://eventhubs.azure.net"],
    ])

    /// Every built-in Azure resource.
    static let all: [AzureResource] = [.resourceManager, .keyVault, .storage, .sqlDatabase, .serviceBus, .eventHubs]

    /// Per cloud: identifier (lower-case, no trailing slash) and app ID → resource.
    private static let index: [CloudName: [String: AzureResource]] = {
        var index: [CloudName: [String: AzureResource]] = [:]
        for cloud in CloudName.allCases {
            var names: [String: AzureResource] = [:]
            for resource in all {
                names[resource.appID] = resource
                for identifier in resource.identifiers[cloud] ?? [] { names[identifier.lowercased()] = resource }
            }
            index[cloud] = names
        }
        return index
    }()

    /// The resource `identifier` (an App ID URI, with or without a trailing slash, or the app ID) names in `cloud`.
    static func named(_ identifier: String, cloud: CloudName) -> AzureResource? {
        index[cloud]?[key(identifier)]
    }

    /// Whether `identifier` names this resource in any cloud (an `apiPermissions` key).
    func isNamed(_ identifier: String) -> Bool {
        let k = Self.key(identifier)
        return k == appID || identifiers.values.contains { $0.contains { $0.lowercased() == k } }
    }

    private static func key(_ identifier: String) -> String {
        var k = Substring(identifier.lowercased())
        while k.hasSuffix("/") { k = k.dropLast() }
        return String(k)
    }
}
