import MockIDPJOSE

extension ErrorReport {
    /// The body a managed-identity host sends for this error: IMDS and Cloud Shell `{"error", "error_description"}`,
    /// or Entra's own body for an error Entra raised (`invalid_resource`, AADSTS500011: IMDS passes it through,
    /// as seen in AzureAD/microsoft-authentication-library-for-dotnet#3979); App Service
    /// `{"statusCode", "message", "correlationId"}` (Azure/azure-sdk-for-net#43691).
    package func managedIdentityBody(_ host: ManagedIdentityHost) -> JSONValue {
        switch host {
        case .appService:
            return ["statusCode": .int(error.status), "message": .string(wording.codeAndMessage), "correlationId": .string(correlationID)]
        case .instanceMetadata, .cloudShell:
            if case .aadsts = wording.code { return jsonBody }
            return ["error": .string(wording.error.rawValue), "error_description": .string(wording.message)]
        }
    }
}
