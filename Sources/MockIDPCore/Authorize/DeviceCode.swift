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
}

/// Device codes by device code, with an index by user code; bounded.
struct DeviceCodeStore: Sendable {
    private var byDeviceCode: [String: DeviceAuthorization] = [:]
    private var byUserCode: [String: String] = [:]
    static let capacity = 20_000

    mutating func insert(deviceCode: String, _ record: DeviceAuthorization, now: Int) {
        if byDeviceCode.count >= Self.capacity {
            byDeviceCode = byDeviceCode.filter { $0.value.expiresAt > now }
            byUserCode = byUserCode.filter { byDeviceCode[$0.value] != nil }
        }
        if byDeviceCode.count >= Self.capacity { removeAll() }
        byDeviceCode[deviceCode] = record
        byUserCode[record.userCode] = deviceCode
    }

    subscript(deviceCode deviceCode: String) -> DeviceAuthorization? {
        get { byDeviceCode[deviceCode] }
        set { byDeviceCode[deviceCode] = newValue }
    }

    func deviceCode(forUserCode userCode: String) -> String? { byUserCode[userCode] }

    mutating func removeAll() {
        byDeviceCode = [:]
        byUserCode = [:]
    }
}
