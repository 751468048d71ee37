import MockIDPCore

extension TenantFields {
    package static let regionSubScope = TenantField<RegionSubScope>(
        "regionSubScope", .choice(of: RegionSubScope.self),
        "The US government community of the tenant, as its discovery documents' tenant_region_sub_scope: GCC (cloud: public), DODCON (GCC High, the default for cloud: usgov) or DOD (cloud: usgov).",
        read: { decoder, node, origin, tenant in
            let subScope: RegionSubScope? = decoder.choice(node, at: origin)
            tenant.regionSubScope = subScope.map { Sourced(value: $0, origin: origin) }
        },
        print: { $0.regionSubScope.map { .scalar($0.rawValue) } })
}

extension RegionSubScope: FieldValue {}
