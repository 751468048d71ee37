@testable import MockIDPCore
import Testing

/// An API named in `apiPermissions`, by client ID or identifier URI, in any case.
@Suite struct APIResourceTests {
    @Test("apiPermissions keys name an API in any case, by client ID or identifier URI")
    func apiPermissionKeys() {
        let api = APIResource.app(Application(clientID: "5f2a3c1e-8b4d-4e6f-9a0b-1c2d3e4f5a6b", identifierURIs: ["api://Contoso-API"]))
        #expect(api.isNamed("API://contoso-api", graphResource: "https://graph.microsoft.com"))
        #expect(api.isNamed("5F2A3C1E-8B4D-4E6F-9A0B-1C2D3E4F5A6B", graphResource: "https://graph.microsoft.com"))
        #expect(!api.isNamed("api://contoso", graphResource: "https://graph.microsoft.com"))
        #expect(APIResource.graph.isNamed("HTTPS://GRAPH.MICROSOFT.COM", graphResource: "https://graph.microsoft.com"))
        #expect(APIResource.graph.isNamed("https://Microsoftgraph.chinacloudapi.cn", graphResource: "https://microsoftgraph.chinacloudapi.cn"))
        #expect(!APIResource.graph.isNamed("api://contoso-api", graphResource: "https://graph.microsoft.com"))
    }
}
