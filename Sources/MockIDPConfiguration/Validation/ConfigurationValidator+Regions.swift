import MockIDPCore

extension ConfigurationValidator {
    /// A region sub-scope belongs to the tenants of one cloud (`RegionSubScope.cloud`): Entra's GCC tenants are in
    /// the public cloud, its GCC High (DODCON) and DoD tenants in the US Government cloud.
    mutating func checkRegionSubScope(of tenant: TenantOverlay) {
        guard let subScope = tenant.regionSubScope else { return }
        let cloud = tenant.cloud?.value ?? .public
        guard subScope.value.cloud != cloud else { return }
        report(subScope.origin, "\(subScope.value.rawValue) is for tenants with cloud: \(subScope.value.cloud.rawValue) (this tenant's cloud is \(cloud.rawValue))")
    }
}
