import MockIDPJOSE

/// What a refresh token stands for: the user, the client and the scopes it was granted, and when.
struct RefreshGrant: Sendable, Equatable {
    var tenantID: String
    var clientID: String
    var userObjectID: String
    var username: String
    var scope: String
    var clientAuthentication: ClientAuthenticationMethod
    var issuedAt: Int
    var expiresAt: Int
    /// Issued to a family (foci) app: any family public client of the tenant may redeem it.
    var family: Bool = false
    /// The B2C policy that issued it (nil for Entra refresh tokens, which B2C endpoints do not take, nor the reverse).
    var policy: String? = nil
    /// The v1 `resource` of the grant, exactly as sent: a v1 refresh without `resource` is for it (nil for v2 grants).
    var resource: String? = nil
}

/// Refresh tokens that carry their own grant, sealed (AES-256-GCM) with a key of this process, so the server keeps
/// nothing per token: a long test run or a stream of clients cannot grow its memory through them (a 10-minute soak
/// issued 40,000, which a table kept for their whole day of life). Entra's are opaque too, and start with a version
/// marker that MSAL treats as opaque. The key is new at every start and at every control-API reset, so tokens die
/// with the process and with a reset, as they did when they were looked up in a table.
struct RefreshTokenSealer: Sendable {
    private let key = SealingKey()

    /// The token for `grant`.
    func token(for grant: RefreshGrant) -> String {
        var fields: JSONObject = [
            "t": .string(grant.tenantID), "c": .string(grant.clientID), "o": .string(grant.userObjectID),
            "u": .string(grant.username), "s": .string(grant.scope), "a": .string(grant.clientAuthentication.rawValue),
            "i": .int(grant.issuedAt), "e": .int(grant.expiresAt),
        ]
        if grant.family { fields["f"] = .bool(true) }
        if let policy = grant.policy { fields["p"] = .string(policy) }
        if let resource = grant.resource { fields["r"] = .string(resource) }
        return Self.marker + Base64URL.encode(key.seal(JSONValue.object(fields).serialized()))
    }

    /// The grant sealed in `token`, or nil when this key did not seal it (another process, before a reset, forged,
    /// changed by a byte).
    func grant(in token: String) -> RefreshGrant? {
        // No length bound of its own: the request body's (1 MiB by default) bounds it, and every token issued opens.
        guard token.hasPrefix(Self.marker),
              let sealed = Base64URL.decode(token.dropFirst(Self.marker.count)), let plain = key.open(sealed),
              let json = try? JSONValue.parse(plain),
              let tenantID = json["t"]?.stringValue, let clientID = json["c"]?.stringValue,
              let userObjectID = json["o"]?.stringValue, let username = json["u"]?.stringValue,
              let scope = json["s"]?.stringValue,
              let authentication = json["a"]?.stringValue.flatMap(ClientAuthenticationMethod.init(rawValue:)),
              let issuedAt = json["i"]?.intValue, let expiresAt = json["e"]?.intValue else { return nil }
        return RefreshGrant(tenantID: tenantID, clientID: clientID, userObjectID: userObjectID, username: username,
                            scope: scope, clientAuthentication: authentication, issuedAt: issuedAt, expiresAt: expiresAt,
                            family: json["f"]?.boolValue ?? false, policy: json["p"]?.stringValue, resource: json["r"]?.stringValue)
    }

    /// Entra's refresh tokens start with a version marker.
    static let marker = "1.A"
}
