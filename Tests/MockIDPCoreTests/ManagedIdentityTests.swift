import MockIDPCore
import MockIDPJOSE
import Testing

/// The managed-identity endpoints' rules (each host's guard header, parameters, selection) and their tokens, with a
/// fixed clock.
@Suite struct ManagedIdentityTests {
    static let system = ManagedIdentity(clientID: "2d0f6b0e-8a7c-4b3e-9f1d-5c6a7b8e9f01", objectID: "4f3e2d1c-0b9a-4876-9543-210fedcba987",
                                        resourceID: "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm",
                                        systemAssigned: true)
    static let worker = ManagedIdentity(clientID: "7d3c9a10-2b4e-4f61-8a7d-0c5e6f7a8b9c", objectID: "1b2c3d4e-5f60-4718-9a2b-3c4d5e6f7a8b",
                                        resourceID: "/subscriptions/s/resourceGroups/rg/providers/Microsoft.ManagedIdentity/userAssignedIdentities/worker")
    static let secret = "identity-secret"

    static func provider(withSystemAssigned: Bool = true) -> IdentityProvider {
        let provider = Fixtures.provider()
        if withSystemAssigned { provider.served.upsertManagedIdentity(system, tenant: Fixtures.contosoID) }
        provider.served.upsertManagedIdentity(worker, tenant: Fixtures.contosoID)
        return provider
    }

    static func request(_ host: ManagedIdentityHost, _ parameters: [(String, String)], metadata: String? = "true",
                        identityHeader: String? = secret) -> ManagedIdentityRequest {
        ManagedIdentityRequest(host: host, parameters: parameters.map { (name: $0.0, value: $0.1) }, metadataHeader: metadata,
                               identityHeader: identityHeader)
    }

    static func imds(_ extra: [(String, String)] = [], resource: String = "https://management.azure.com/", metadata: String? = "true")
        -> ManagedIdentityRequest {
        request(.instanceMetadata, [("api-version", "2018-02-01"), ("resource", resource)] + extra, metadata: metadata)
    }

    static func answer(_ provider: IdentityProvider, _ request: ManagedIdentityRequest) -> Result<JSONValue, OAuthError> {
        provider.managedIdentity.token(request, identityHeader: secret, context: provider.testScope())
    }

    static func claims(_ result: Result<JSONValue, OAuthError>) -> JSONObject {
        guard case .success(let body) = result else { return [:] }
        return Fixtures.claims(body["access_token"]?.stringValue)
    }

    static func error(_ result: Result<JSONValue, OAuthError>) -> OAuthError? {
        if case .failure(let e) = result { e } else { nil }
    }

    @Test("IMDS issues the system-assigned identity's v1 token for Azure Resource Manager, aud as requested")
    func imdsSystemAssigned() throws {
        let result = Self.answer(Self.provider(), Self.imds())
        let body = try #require(try result.get().objectValue)
        #expect(body["client_id"]?.stringValue == Self.system.clientID)
        #expect(body["expires_in"] == "3600" && body["expires_on"] == .string(String(Fixtures.now + 3600)))
        #expect(body["not_before"] == .string(String(Fixtures.now)) && body["token_type"] == "Bearer")
        let claims = Self.claims(result)
        #expect(claims["aud"] == "https://management.azure.com/")
        #expect(claims["iss"] == .string("https://sts.windows.net/\(Fixtures.contosoID)/"))
        #expect(claims["appid"] == .string(Self.system.clientID) && claims["appidacr"] == "2" && claims["idtyp"] == "app")
        #expect(claims["oid"] == .string(Self.system.objectID) && claims["sub"] == .string(Self.system.objectID))
        #expect(claims["xms_mirid"] == .string(Self.system.resourceID) && claims["tid"] == .string(Fixtures.contosoID))
    }

    @Test("a user-assigned identity is chosen by client id, object id or resource id, at each host by its names")
    func selection() {
        let provider = Self.provider()
        let requests: [ManagedIdentityRequest] = [
            Self.imds([("client_id", Self.worker.clientID.uppercased())]),
            Self.imds([("object_id", Self.worker.objectID)]),
            Self.imds([("msi_res_id", Self.worker.resourceID.lowercased())]),
            Self.request(.appService, [("api-version", "2019-08-01"), ("resource", "https://vault.azure.net"), ("principal_id", Self.worker.objectID)]),
            Self.request(.appService, [("api-version", "2019-08-01"), ("resource", "https://vault.azure.net"), ("object_id", Self.worker.objectID)]),
            Self.request(.appService, [("api-version", "2019-08-01"), ("resource", "https://vault.azure.net"), ("mi_res_id", Self.worker.resourceID)]),
            Self.request(.cloudShell, [("resource", "https://vault.azure.net"), ("client_id", Self.worker.clientID)]),
        ]
        for request in requests {
            #expect(Self.claims(Self.answer(provider, request))["appid"] == .string(Self.worker.clientID), "\(request.parameters)")
        }
    }

    @Test("a v2 API of the tenant gets a v2 token whose azp is the identity")
    func v2Resource() {
        let claims = Self.claims(Self.answer(Self.provider(), Self.imds([("client_id", Self.worker.clientID)], resource: "api://contoso-api")))
        #expect(claims["aud"] == .string(Fixtures.api) && claims["ver"] == "2.0")
        #expect(claims["azp"] == .string(Self.worker.clientID) && claims["azpacr"] == "2")
        #expect(claims["iss"] == .string("https://localhost:8443/\(Fixtures.contosoID)/v2.0"))
        #expect(claims["xms_mirid"] == .string(Self.worker.resourceID))
    }

    @Test("IMDS and Cloud Shell refuse a request without Metadata: true before anything else")
    func metadataHeader() {
        let provider = Self.provider()
        for metadata in [nil, "True", "1"] {
            let error = Self.error(Self.answer(provider, Self.imds(metadata: metadata)))
            #expect(error?.code == .invalidRequest && error?.message == "Required metadata header not specified" && error?.status == 400)
        }
        let error = Self.error(Self.answer(provider, Self.request(.cloudShell, [], metadata: nil)))
        #expect(error?.message == "Required metadata header not specified")
    }

    @Test("App Service refuses a missing or wrong X-IDENTITY-HEADER with 401")
    func identityHeader() {
        let provider = Self.provider()
        for header in [nil, "", "identity-secreT"] {
            let error = Self.error(Self.answer(provider, Self.request(.appService, [("api-version", "2019-08-01"), ("resource", "r")],
                                                                       identityHeader: header)))
            #expect(error?.status == 401)
        }
    }

    @Test("an unknown identity, or none named without a system-assigned one, is IMDS's 'Identity not found'")
    func unknownIdentity() {
        let error = Self.error(Self.answer(Self.provider(), Self.imds([("client_id", "00000000-0000-0000-0000-000000000000")])))
        #expect(error?.message == "Identity not found" && error?.status == 400 && error?.aadsts == nil)
        let none = Self.error(Self.answer(Self.provider(withSystemAssigned: false), Self.imds()))
        #expect(none?.message == "Identity not found" && none?.reason.contains("systemAssigned") == true)
        let appService = Self.error(Self.answer(Self.provider(withSystemAssigned: false),
                                                Self.request(.appService, [("api-version", "2019-08-01"), ("resource", "r")])))
        #expect(appService?.message == "Unable to load the proper Managed Identity.")
    }

    @Test("an unknown resource is Entra's invalid_resource AADSTS500011")
    func unknownResource() {
        let error = Self.error(Self.answer(Self.provider(), Self.imds(resource: "https://nobody.example.com")))
        #expect(error?.code == .invalidResource && error?.aadsts == 500011)
    }

    @Test("bad parameters are the host's invalid_request, never a crash")
    func badParameters() {
        let provider = Self.provider()
        let cases: [[(String, String)]] = [
            [("resource", "r")],
            [("api-version", "2017-12-01"), ("resource", "r")],
            [("api-version", "latest"), ("resource", "r")],
            [("api-version", "2018-02-01")],
            [("api-version", "2018-02-01"), ("resource", "")],
            [("api-version", "2018-02-01"), ("resource", "r"), ("resource", "s")],
            [("api-version", "2018-02-01"), ("resource", "r"), ("client_id", Self.worker.clientID), ("msi_res_id", Self.worker.resourceID)],
            [("api-version", "2018-02-01"), ("resource", "r"), ("object_id", "")],
            [("api-version", "2018-02-01"), ("resource", "a b")],
        ]
        for parameters in cases {
            let error = Self.error(Self.answer(provider, Self.request(.instanceMetadata, parameters)))
            #expect(error?.status == 400, "\(parameters)")
        }
        let oldAppService = Self.error(Self.answer(provider, Self.request(.appService, [("api-version", "2017-09-01"), ("resource", "r")])))
        #expect(oldAppService?.status == 400 && oldAppService?.message.contains("api-version") == true)
    }

    @Test("the host error shapes: IMDS's two fields, Entra's body passed through, App Service's statusCode and message")
    func errorShapes() {
        let report = ErrorReport(.managedIdentityNotFound(.clientID("x"), host: .instanceMetadata), dialect: .entra, traceID: "t",
                                 correlationID: "c", timestamp: "now")
        #expect(report.managedIdentityBody(.instanceMetadata) == ["error": "invalid_request", "error_description": "Identity not found"])
        let entra = ErrorReport(.unknownResource("r", tenant: "t"), dialect: .entra, traceID: "t", correlationID: "c", timestamp: "now")
        #expect(entra.managedIdentityBody(.instanceMetadata)["error_codes"] == [500011])
        let appService = ErrorReport(.managedIdentityNotFound(.systemAssigned, host: .appService), dialect: .entra, traceID: "t",
                                     correlationID: "c", timestamp: "now")
        #expect(appService.managedIdentityBody(.appService)
            == ["statusCode": 400, "message": "Unable to load the proper Managed Identity.", "correlationId": "c"])
    }

    @Test("Azure's built-in resources answer client credentials in every cloud's names, with v1 tokens")
    func builtInResources() {
        let provider = Fixtures.provider()
        for scope in ["https://vault.azure.net/.default", "https://management.core.windows.net//.default",
                      "797f4846-ba00-4fd7-ba43-dac1f8f63013/.default", "https://eventhubs.azure.net/.default"] {
            let result = Fixtures.token(provider, [("grant_type", "client_credentials"), ("client_id", Fixtures.daemon),
                                                   ("client_secret", "daemon-secret"), ("scope", scope)])
            let claims = Fixtures.claims(result.body?["access_token"]?.stringValue)
            #expect(claims["ver"] == "1.0" && claims["iss"] == .string("https://sts.windows.net/\(Fixtures.contosoID)/"), "\(scope)")
            #expect(claims["appid"] == .string(Fixtures.daemon) && claims["xms_mirid"] == nil, "\(scope)")
        }
        let usgov = Fixtures.token(provider, [("grant_type", "client_credentials"), ("client_id", Fixtures.daemon),
                                              ("client_secret", "daemon-secret"), ("scope", "https://vault.usgovcloudapi.net/.default")])
        #expect(usgov.error?.aadsts == 500011)
    }

    @Test("derived object and resource ids are stable and differ by tenant")
    func derivedIDs() {
        let a = ManagedIdentity.derivedObjectID(tenantID: Fixtures.contosoID, clientID: Self.worker.clientID)
        #expect(a == ManagedIdentity.derivedObjectID(tenantID: Fixtures.contosoID.uppercased(), clientID: Self.worker.clientID))
        #expect(a != ManagedIdentity.derivedObjectID(tenantID: Fixtures.fabrikamID, clientID: Self.worker.clientID))
        let resource = ManagedIdentity.derivedResourceID(tenantID: Fixtures.contosoID, clientID: Self.worker.clientID, systemAssigned: false)
        #expect(ManagedIdentity.isResourceID(resource) && resource.hasSuffix("userAssignedIdentities/\(Self.worker.clientID)"))
        #expect(!ManagedIdentity.isResourceID("/subscriptions/a b") && !ManagedIdentity.isResourceID("subscriptions/x"))
    }
}
