/// A device code request while the user signs in elsewhere (RFC 8628).
struct DeviceAuthorization: Sendable {
    enum Status: Sendable {
        case pending
        case approved(userObjectID: String, username: String, tenantID: String)
        case declined
        case redeemed
    }

    var userCode: String
    var clientID: String
    var tenantSegment: String
    var scope: String
    var expiresAt: Int
    var interval: Int
    var lastPoll: Int?
    var status: Status
    /// A v1 request's `resource`, exactly as sent: polling without `resource` gets tokens for it (nil for v2).
    var resource: String? = nil
}

extension DeviceAuthorization: Expiring {
    /// The client's text the device code keeps until it expires: its scopes (a v1 request's `resource` among them)
    /// and the tenant segment of its path.
    var keptBytes: Int { scope.utf8.count + (resource?.utf8.count ?? 0) + tenantSegment.utf8.count }

    /// 16 MiB: at the scope limit (`ScopeRequest.maximumLength`) some 2,000 device codes; codes of ordinary sizes reach
    /// the store's count bound (20,000) first.
    static var keptBytesCapacity: Int { 16 << 20 }
}

/// Device codes by device code, with an index by user code.
struct DeviceCodeStore: Sendable {
    private var byDeviceCode = ExpiringStore<DeviceAuthorization>(capacity: 20_000)
    private var byUserCode: [String: String] = [:]

    mutating func insert(deviceCode: String, _ record: DeviceAuthorization, now: Int) {
        byDeviceCode.insert(deviceCode, record, now: now)
        // The store sweeps expired device codes out (or, when full, lets them all go): drop their user codes too,
        // once the index has grown to twice what the store holds.
        if byUserCode.count >= max(ExpiringStore<DeviceAuthorization>.smallestSweep, 2 * byDeviceCode.count) {
            byUserCode = byUserCode.filter { byDeviceCode[$0.value] != nil }
        }
        byUserCode[record.userCode] = deviceCode
    }

    subscript(deviceCode deviceCode: String) -> DeviceAuthorization? {
        get { byDeviceCode[deviceCode] }
        set { byDeviceCode[deviceCode] = newValue }
    }

    func deviceCode(forUserCode userCode: String) -> String? { byUserCode[userCode] }

    /// How many device codes the store holds (expired ones not yet swept included), and the client text they keep.
    var count: Int { byDeviceCode.count }
    var keptBytes: Int { byDeviceCode.keptBytes }

    mutating func removeAll() {
        byDeviceCode.removeAll()
        byUserCode = [:]
    }
}
