/// `tenant_region_sub_scope` in a tenant's discovery documents: the US government community the tenant belongs to,
/// spelt as Entra sends it. Entra sends the member only for such tenants, right after `tenant_region_scope`, in the
/// v1 and v2 documents alike.
///
/// Every tenant of the US Government cloud (`login.microsoftonline.us`) is GCC High or DoD (GCC tenants live in the
/// public cloud), so a `usgov` tenant configured without one is GCC High (`effectiveRegionSubScope`).
///
/// Sources: MicrosoftDocs/azure-docs issue 56915 (a GCC High tenant: `"tenant_region_scope": "USGov"`,
/// `"tenant_region_sub_scope": "DODCON"`) and issue 84367 (a GCC tenant: `"NA"` and `"GCC"`); cisagov/ScubaGear's
/// Power Platform provider, which reads the v1 document of each kind of tenant (commercial: `"NA"` and no
/// sub-scope; GCC: `"NA"`, `"GCC"`; GCC High: `"USGov"`, `"DODCON"`; DoD: `"USGov"`, `"DOD"`).
public enum RegionSubScope: String, Sendable, CaseIterable {
    /// Government Community Cloud (GCC, "moderate"): a tenant of the public cloud, at `login.microsoftonline.com`.
    case gcc = "GCC"
    /// GCC High: a tenant of the US Government cloud.
    case dodcon = "DODCON"
    /// Department of Defense (DoD): a tenant of the US Government cloud.
    case dod = "DOD"

    /// The cloud whose tenants carry this sub-scope: the public cloud for GCC, the US Government cloud otherwise.
    public var cloud: CloudName { self == .gcc ? .public : .usgov }

    /// `tenant_region_scope` beside it: `NA` for GCC tenants (North America), `USGov` for the others.
    package var regionScope: String { self == .gcc ? "NA" : Cloud.usGovernment.regionScope }
}

extension Tenant {
    /// The sub-scope this tenant's discovery documents name: the configured one, else `DODCON` for a US Government
    /// tenant (there is no third kind there), else none.
    package var effectiveRegionSubScope: RegionSubScope? {
        regionSubScope ?? (cloud == .usgov ? .dodcon : nil)
    }

    /// `tenant_region_scope` of this tenant (discovery, and the optional claim): its sub-scope's, else its cloud's.
    package func regionScope(in cloud: Cloud) -> String { effectiveRegionSubScope?.regionScope ?? cloud.regionScope }
}
