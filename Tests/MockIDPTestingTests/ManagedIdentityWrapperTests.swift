import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockIDPJOSE
import MockIDPTesting
import Testing

/// `addManagedIdentity` and the managed-identity endpoint URLs, over HTTP.
@Suite struct ManagedIdentityWrapperTests {
    static let contoso = "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11"
    static let identity = "7d3c9a10-2b4e-4f61-8a7d-0c5e6f7a8b9c"

    @Test("addManagedIdentity makes an identity whose tokens IMDS and App Service issue; a bad one is refused with 400")
    func addManagedIdentity() async throws {
        try await withMockIdentityProvider { idp in
            let added = try await idp.addManagedIdentity(MockManagedIdentity(clientID: Self.identity, systemAssigned: true), tenant: Self.contoso)
            let objectID = try #require(added["objectId"]?.stringValue)
            #expect(idp.managedIdentityEndpoint(.instanceMetadata) == idp.baseURL + "/metadata/identity/oauth2/token")
            var imds = URLRequest(url: try #require(URL(string: idp.managedIdentityEndpoint(.instanceMetadata)
                + "?api-version=2018-02-01&resource=https%3A%2F%2Fmanagement.azure.com%2F")))
            imds.setValue("true", forHTTPHeaderField: "Metadata")
            var appService = URLRequest(url: try #require(URL(string: idp.managedIdentityEndpoint(.appService)
                + "?api-version=2019-08-01&resource=https%3A%2F%2Fmanagement.azure.com%2F")))
            appService.setValue(idp.identityHeader, forHTTPHeaderField: "X-IDENTITY-HEADER")
            for request in [imds, appService] {
                let (data, response) = try await URLSession.shared.data(for: request)
                #expect((response as? HTTPURLResponse)?.statusCode == 200)
                let token = try #require(try JSONValue.parse(Array(data))["access_token"]?.stringValue)
                let claims = try CompactJWS(token).payload
                #expect(claims["appid"] == .string(Self.identity) && claims["oid"] == .string(objectID))
            }
            let error = await #expect(throws: ControlAPIError.self) {
                try await idp.addManagedIdentity(MockManagedIdentity(clientID: "not-a-guid"), tenant: Self.contoso)
            }
            #expect(error?.status == 400)
        }
    }
}
