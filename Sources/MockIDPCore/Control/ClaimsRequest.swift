import MockIDPJOSE

/// The OIDC `claims` request parameter (OpenID Connect Core §5.5), as clients send it to answer a claims challenge:
/// `{"access_token": {"acrs": {"essential": true, "value": "c1"}, "xms_cc": {"values": ["CP1"]}}}`.
///
/// mockidp's rule (docs/control-api.md, "Claims challenges"): a request *answers* a challenge when its claims contain every
/// claim the challenge asks for, in the same member (`access_token`, `id_token`, `userinfo`), with at least the
/// same values; other claims (MSAL's `xms_cc` client capabilities) may be added. A request *asks for MFA* when it
/// asks for `acrs` or `capolids` (an authentication context or a Conditional Access policy, which mockidp treats as
/// satisfied by multi-factor sign-in) or for an `amr` value `mfa`.
package struct ClaimsRequest: Sendable, Equatable {
    /// Member (`access_token`, …) → claim name → the values asked for (empty when any value will do).
    package private(set) var members: [String: [String: [String]]]

    /// Parses the parameter's JSON text; nil when it is not a JSON object of objects.
    package init?(json: String) {
        guard let value = try? JSONValue.parse(json), let root = value.objectValue else { return nil }
        var members: [String: [String: [String]]] = [:]
        for (member, claims) in root {
            guard let claims = claims.objectValue else {
                // Members OpenID Connect does not define are claims for a user made on the fly (`UsersOnTheFly`),
                // which the authorize step reads; MSAL sends the same parameter to the token endpoint.
                if claims == .null || !UsersOnTheFly.claimsRequestMembers.contains(member) { continue }
                return nil
            }
            var requested: [String: [String]] = [:]
            for (name, spec) in claims {
                var values: [String] = []
                if let spec = spec.objectValue {
                    if let one = spec["value"].flatMap(Self.text) { values.append(one) }
                    for v in spec["values"]?.arrayValue ?? [] { if let t = Self.text(v) { values.append(t) } }
                } else if spec != .null {
                    return nil
                }
                requested[name] = values
            }
            members[member] = requested
        }
        self.members = members
    }

    private static func text(_ value: JSONValue) -> String? {
        if let s = value.stringValue { return s }
        if let i = value.intValue { return String(i) }
        return nil
    }

    /// True when this request asks for every claim `challenge` asks for, with at least its values.
    package func answers(_ challenge: ClaimsRequest) -> Bool {
        for (member, claims) in challenge.members {
            for (name, values) in claims {
                guard let asked = members[member]?[name] else { return false }
                if !Set(values).isSubset(of: Set(asked)) { return false }
            }
        }
        return true
    }

    /// The authentication-context IDs asked for (`acrs`, in any member), in order, each once.
    package var authenticationContexts: [String] {
        var seen = Set<String>()
        return ["access_token", "id_token", "userinfo"].flatMap { members[$0]?["acrs"] ?? [] }.filter { seen.insert($0).inserted }
    }

    /// True when the request asks for multi-factor authentication (`acrs`, `capolids`, or `amr` containing `mfa`).
    package var asksForMultiFactor: Bool {
        members.values.contains { claims in
            claims["acrs"] != nil || claims["capolids"] != nil || (claims["amr"]?.contains("mfa") ?? false)
        }
    }
}
