import MockIDPJOSE

/// The `login_hint` optional claim: "an opaque, reliable login hint claim that's base 64 encoded" naming the user's
/// home account, which an authorize request's `login_hint` may carry back (Microsoft Learn, "Optional claims
/// reference"). Entra's value is `O.` and the base64 of a protobuf message (object ID, tenant ID, sign-in name);
/// mockidp writes the same layout.
package enum LoginHint {
    private static let prefix = "O."

    /// The hint for `account`.
    static func encode(_ account: HomeAccount) -> String {
        var bytes: [UInt8] = []
        for (field, text) in [(1, account.objectID), (2, account.tenantID), (3, account.username)] {
            let utf8 = Array(text.utf8)
            guard utf8.count < 128 else { continue }
            bytes += [UInt8(field << 3 | 2), UInt8(utf8.count)] + utf8
        }
        return prefix + Base64URL.encodeStandard(bytes)
    }

    /// The sign-in name an authorize request's `login_hint` names: the one inside a hint made by `encode`, else
    /// the hint as sent (a user name).
    static func signInName(_ hint: String) -> String { username(in: hint) ?? hint }

    /// The sign-in name a hint made by `encode` names, or nil when `hint` is not one.
    package static func username(in hint: String) -> String? {
        guard hint.hasPrefix(prefix), let bytes = Base64URL.decode(String(hint.dropFirst(prefix.count))) else { return nil }
        var offset = 0
        while offset + 2 <= bytes.count {
            let field = Int(bytes[offset] >> 3), length = Int(bytes[offset + 1])
            guard bytes[offset] & 7 == 2, offset + 2 + length <= bytes.count else { return nil }
            if field == 3 { return String(decoding: bytes[(offset + 2)..<(offset + 2 + length)], as: UTF8.self) }
            offset += 2 + length
        }
        return nil
    }
}
