import MockIDPJOSE

/// One entry of `GET /_mockidp/outbox`: a one-time passcode External ID would have mailed (docs/external-id.md,
/// "The outbox").
public struct OutboxMessage: Sendable, Equatable {
    /// `to`: the address.
    public var to: String
    /// `code`: the passcode.
    public var code: String
    /// `purpose`: `signUp`, `signIn`, `passwordReset` or `mfa`.
    public var purpose: String
    /// `sentAt`, ISO 8601 (UTC).
    public var sentAt: String

    /// Reads one entry; nil when a member is missing.
    init?(json: JSONValue) {
        guard let to = json["to"]?.stringValue, let code = json["code"]?.stringValue,
              let purpose = json["purpose"]?.stringValue, let sentAt = json["sentAt"]?.stringValue else { return nil }
        self.to = to
        self.code = code
        self.purpose = purpose
        self.sentAt = sentAt
    }
}

extension MockIdentityProvider {
    /// The one-time passcodes the server would have mailed, oldest first: `GET /_mockidp/outbox`.
    public func outbox() async throws -> [OutboxMessage] {
        let answer = try await control(.outbox, body: nil, expect: 200)
        guard let entries = answer["messages"]?.arrayValue else {
            throw ControlAPIError(call: "GET /_mockidp/outbox", status: 200, body: "no \"messages\" array: \(answer.jsonString)")
        }
        return entries.compactMap(OutboxMessage.init(json:))
    }

    /// The newest passcode mailed to `address` (any case), if any: what a test types where a user would.
    public func lastCode(sentTo address: String) async throws -> String? {
        try await outbox().last { $0.to.lowercased() == address.lowercased() }?.code
    }
}
