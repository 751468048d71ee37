import MockIDPJOSE

/// A fault for `MockIdentityProvider.injectFault(_:)`: the next `count` matching requests fail as described
/// (or are only delayed). The body of `POST /_mockidp/faults`.
public struct MockFault: Sendable {
    /// `endpoint`: which endpoint fails (`token`, `authorize`, `devicecode`, `discovery`, `keys`, …).
    public var endpoint: String
    /// `count`: how many matching requests fail (0: every one until `reset()`).
    public var count: Int
    /// `status`: the HTTP status (400 unless told; 429 and 5xx work too).
    public var status: Int?
    /// `error`: the OAuth error code (`invalid_grant`, `temporarily_unavailable`, …).
    public var error: String?
    /// `aadsts`: Entra's error number (50076 for an MFA claims challenge).
    public var aadsts: Int?
    /// `suberror` (`basic_action`, …).
    public var suberror: String?
    /// `claims`: the claims challenge, as the JSON string Entra sends.
    public var claims: String?
    /// `retryAfter`: seconds, sent as `Retry-After` (with 429 or 503).
    public var retryAfter: Int?
    /// `delayMs`: answer after this many milliseconds.
    public var delayMilliseconds: Int?
    /// `clientId`: only requests of this client match.
    public var clientID: String?
    /// `tenant`: only requests to this tenant (GUID or domain) match.
    public var tenant: String?
    /// `grantType`: only token requests of this grant match.
    public var grantType: String?
    /// Further members (`message`, `b2cCode` for B2C policies, …), sent as given.
    public var extra: JSONObject

    /// A fault with the given fields.
    public init(endpoint: String = "token", count: Int = 1, status: Int? = nil, error: String? = nil, aadsts: Int? = nil,
                suberror: String? = nil, claims: String? = nil, retryAfter: Int? = nil, delayMilliseconds: Int? = nil,
                clientID: String? = nil, tenant: String? = nil, grantType: String? = nil, extra: JSONObject = [:]) {
        self.endpoint = endpoint
        self.count = count
        self.status = status
        self.error = error
        self.aadsts = aadsts
        self.suberror = suberror
        self.claims = claims
        self.retryAfter = retryAfter
        self.delayMilliseconds = delayMilliseconds
        self.clientID = clientID
        self.tenant = tenant
        self.grantType = grantType
        self.extra = extra
    }

    /// The JSON body of the control call.
    public var json: JSONValue {
        var o: JSONObject = ["endpoint": .string(endpoint), "count": .int(count)]
        o.set("status", status)
        o.set("error", error)
        o.set("aadsts", aadsts)
        o.set("suberror", suberror)
        o.set("claims", claims)
        o.set("retryAfter", retryAfter)
        o.set("delayMs", delayMilliseconds)
        o.set("clientId", clientID)
        o.set("tenant", tenant)
        o.set("grantType", grantType)
        o.merge(extra)
        return .object(o)
    }
}
