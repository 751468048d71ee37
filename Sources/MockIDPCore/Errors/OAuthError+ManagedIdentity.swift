/// The managed-identity hosts' own errors (the instance metadata service, App Service, Cloud Shell). They carry no
/// AADSTS code: IMDS answers `{"error", "error_description"}`, App Service `{"statusCode", "message",
/// "correlationId"}` (`ErrorReport+ManagedIdentity`). Errors Entra raises behind them (an unknown resource) keep
/// Entra's code and words, as the hosts pass them through.
extension OAuthError {
    /// IMDS and Cloud Shell refuse a request without `Metadata: true` (an SSRF guard): 400, and azure-identity's
    /// availability probe, which leaves the header out on purpose, reads the answer as "IMDS is there".
    /// Microsoft Learn, "How to use managed identities … on an Azure VM", HTTP response reference; the body as IMDS
    /// sends it: azure-sdk-for-net's ImdsManagedIdentitySource tests.
    package static func metadataHeaderRequired(sent: String?) -> OAuthError {
        OAuthError(code: .invalidRequest, message: "Required metadata header not specified",
                   reason: sent.map { "the Metadata header is '\($0)', not 'true' (all lower case)" }
                       ?? "the request has no 'Metadata: true' header (IMDS and Cloud Shell require it)")
    }

    /// A required parameter of a managed-identity endpoint is missing or empty.
    package static func managedIdentityParameterMissing(_ name: String, host: ManagedIdentityHost) -> OAuthError {
        OAuthError(code: .invalidRequest, message: "Required query variable '\(name)' is missing",
                   reason: "the \(host.displayName) request has no '\(name)' parameter")
    }

    /// A parameter of a managed-identity endpoint has a value the host does not accept (an api-version it does not
    /// serve), is given more than once, or names the identity in more than one way.
    package static func managedIdentityParameterInvalid(_ name: String, _ why: String, host: ManagedIdentityHost) -> OAuthError {
        OAuthError(code: .invalidRequest, message: "Invalid value for query variable '\(name)': \(why)",
                   reason: "the \(host.displayName) request's '\(name)' \(why)")
    }

    /// Cloud Shell's form body (`resource=…`) could not be read.
    package static func managedIdentityBodyUnreadable(_ why: String, host: ManagedIdentityHost) -> OAuthError {
        OAuthError(code: .invalidRequest, message: "The request body could not be read: \(why)",
                   reason: "the \(host.displayName) request's body is not a form: \(why)")
    }

    /// No managed identity matches the request (or none is system-assigned when it names none). IMDS: 400
    /// `invalid_request` "Identity not found" (seen in Azure/azure-sdk-for-net#37278, Azure/aad-pod-identity#778);
    /// App Service: 400 "Unable to load the proper Managed Identity." (Azure/azure-sdk-for-net#43691).
    package static func managedIdentityNotFound(_ selector: ManagedIdentitySelector, host: ManagedIdentityHost) -> OAuthError {
        let message = host == .appService ? "Unable to load the proper Managed Identity." : "Identity not found"
        let reason = selector == .systemAssigned
            ? "the request names no identity and no managed identity of the configuration is systemAssigned"
            : "no managed identity of the configuration has the \(selector.description)"
        return OAuthError(code: .invalidRequest, message: message, reason: reason)
    }

    /// App Service's token service requires `X-IDENTITY-HEADER` to be the `IDENTITY_HEADER` secret it gave the app.
    package static func identityHeaderMismatch(sent: Bool) -> OAuthError {
        OAuthError(code: .unauthorized, message: "The request is missing or has a wrong X-IDENTITY-HEADER.", status: 401,
                   reason: sent ? "the X-IDENTITY-HEADER is not the server's identity header secret (--identity-header)"
                       : "the request has no X-IDENTITY-HEADER (App Service requires the IDENTITY_HEADER secret in it)")
    }
}
