import MockIDPCore
import MockIDPJOSE
import Testing

/// `tenant_region_sub_scope`: in both discovery documents of a US government community's tenant, right after
/// `tenant_region_scope`, and nowhere else.
@Suite struct RegionSubScopeDiscoveryTests {
    static let dodID = "0d0d0d0d-1111-4222-8333-444444444444"
    static let gccID = "0c0c0c0c-1111-4222-8333-444444444444"
    static let highID = "0e0e0e0e-1111-4222-8333-444444444444"
    let provider: IdentityProvider = {
        var configuration = Fixtures.configuration
        configuration.tenants += [
            Tenant(id: dodID, domains: ["army.onmicrosoft.us"], cloud: .usgov, regionSubScope: .dod),
            Tenant(id: gccID, domains: ["county.onmicrosoft.com"], regionSubScope: .gcc),
            Tenant(id: highID, domains: ["agency.onmicrosoft.us"], cloud: .usgov),
        ]
        return IdentityProvider(configuration: configuration, signingKeys: [Fixtures.signingKey], clock: .fixed(Fixtures.now))
    }()

    func document(_ tenant: String, _ version: ProtocolVersion, host: String = "localhost") throws -> JSONObject {
        let context = provider.testScope(at: host)
        guard case .success(let d) = provider.discovery.openIDConfiguration(tenant: tenant, version: version, context: context) else {
            Issue.record("no document for \(tenant) at \(host)")
            return [:]
        }
        return try #require(d.objectValue)
    }

    @Test("a DoD tenant: USGov and DOD, after tenant_region_scope, in the v1 and v2 documents, by id or domain",
          arguments: [ProtocolVersion.v1, .v2])
    func dod(version: ProtocolVersion) throws {
        for (tenant, host) in [(Self.dodID, "login.microsoftonline.us"), ("army.onmicrosoft.us", "localhost")] {
            let d = try document(tenant, version, host: host)
            #expect(d["tenant_region_scope"] == "USGov" && d["tenant_region_sub_scope"] == "DOD")
            #expect(d["cloud_instance_name"] == "microsoftonline.us")
            let keys = Array(d.keys)
            let scope = try #require(keys.firstIndex(of: "tenant_region_scope"))
            #expect(Array(keys[scope...].prefix(3)) == ["tenant_region_scope", "tenant_region_sub_scope", "cloud_instance_name"])
        }
    }

    @Test("a US Government tenant without a configured sub-scope is GCC High: USGov and DODCON in the v1 and v2 documents",
          arguments: [ProtocolVersion.v1, .v2])
    func usGovernmentDefault(version: ProtocolVersion) throws {
        for (tenant, host) in [(Self.highID, "login.microsoftonline.us"), ("agency.onmicrosoft.us", "localhost")] {
            let d = try document(tenant, version, host: host)
            #expect(d["tenant_region_scope"] == "USGov" && d["tenant_region_sub_scope"] == "DODCON", "\(tenant) at \(host)")
            let keys = Array(d.keys)
            let scope = try #require(keys.firstIndex(of: "tenant_region_scope"))
            #expect(Array(keys[scope...].prefix(2)) == ["tenant_region_scope", "tenant_region_sub_scope"])
        }
        // The configuration still says nothing (`config print` shows what was written); DOD stays a choice.
        let high = Tenant(id: Self.highID, cloud: .usgov)
        #expect(high.regionSubScope == nil && high.effectiveRegionSubScope == .dodcon)
        #expect(Tenant(id: Self.dodID, cloud: .usgov, regionSubScope: .dod).effectiveRegionSubScope == .dod)
        #expect(Tenant(id: Self.gccID).effectiveRegionSubScope == nil)
    }

    @Test("a GCC tenant is a public-cloud tenant of North America: NA and GCC", arguments: [ProtocolVersion.v1, .v2])
    func gcc(version: ProtocolVersion) throws {
        let d = try document(Self.gccID, version, host: "login.microsoftonline.com")
        #expect(d["tenant_region_scope"] == "NA" && d["tenant_region_sub_scope"] == "GCC")
        #expect(d["cloud_instance_name"] == "microsoftonline.com")
    }

    @Test("other tenants and the multi-tenant segments have no sub-scope member at all")
    func absent() throws {
        for version in [ProtocolVersion.v1, .v2] {
            let contoso = try document(Fixtures.contosoID, version)
            #expect(contoso["tenant_region_scope"] == "WW" && !contoso.keys.contains("tenant_region_sub_scope"))
            let common = try document("common", version, host: "login.microsoftonline.us")
            #expect(common["tenant_region_scope"] == .null && !common.keys.contains("tenant_region_sub_scope"))
        }
    }

    @Test("the DoD tenant stays a US Government tenant: refused at the public cloud's host, served at its own")
    func servedByItsCloudOnly() throws {
        let refusal = try #require(provider.testScope(at: "login.microsoftonline.com").hostRefusal(tenantSegment: Self.dodID, forDiscovery: true))
        #expect(refusal.aadsts == 90002)
        #expect(provider.testScope(at: "login.microsoftonline.us").hostRefusal(tenantSegment: Self.dodID, forDiscovery: true) == nil)
        #expect(provider.testScope(at: "login.microsoftonline.com").hostRefusal(tenantSegment: Self.gccID, forDiscovery: true) == nil)
    }

    @Test("the optional claim tenant_region_scope says what discovery says: NA for a GCC tenant")
    func optionalClaim() throws {
        var configuration = Fixtures.configuration
        configuration.tenants[0].regionSubScope = .gcc
        configuration.tenants[0].apps[0].optionalClaims = OptionalClaims(idToken: [.tenantRegionScope])
        let gcc = IdentityProvider(configuration: configuration, signingKeys: [Fixtures.signingKey], clock: .fixed(Fixtures.now))
        let body = try #require(Fixtures.token(gcc, [("grant_type", "password"), ("client_id", Fixtures.mobile),
                                                     ("username", "alice@contoso.onmicrosoft.com"), ("password", "alice-password"),
                                                     ("scope", "openid profile")]).body)
        #expect(Fixtures.claims(body["id_token"]?.stringValue)["tenant_region_scope"] == "NA")
    }
}
