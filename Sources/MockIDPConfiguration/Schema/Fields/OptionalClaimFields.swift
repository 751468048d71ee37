import MockIDPCore

/// The keys of an app's `optionalClaims:` mapping (the app manifest's), in print order: for each token, the
/// optional claims it carries, by their claim names.
package enum OptionalClaimFields {
    package typealias OptionalClaimField = Field<OptionalClaims, OptionalClaims, [OptionalClaim]>

    package static let idToken = field(.idToken, "Optional claims added to the ID tokens this app receives.")

    package static let accessToken = field(.accessToken, "Optional claims added to access tokens issued for this app as an API.")

    static let table = FieldTable(idToken, accessToken)

    private static func field(_ token: OptionalClaim.Token, _ summary: String) -> OptionalClaimField {
        OptionalClaimField(
            token.rawValue, .list(.choice(OptionalClaim.allCases.filter { $0.tokens.contains(token) }.map(\.rawValue))), summary,
            read: { decoder, node, origin, claims in claims[token] = decoder.optionalClaimNames(node, at: origin, token: token) },
            print: { .list($0[token].map(\.rawValue)) })
    }
}

extension OptionalClaim: FieldListItem {
    package static func fieldJSON(of items: [OptionalClaim]) -> ClaimValue { String.fieldJSON(of: items.map(\.rawValue)) }
}

extension OptionalClaims: FieldValue {
    package var fieldJSON: ClaimValue? {
        var body = FieldBody()
        body.set(OptionalClaimFields.idToken, idToken)
        body.set(OptionalClaimFields.accessToken, accessToken)
        return body.object.isEmpty ? ClaimValue?.none : .object(body.object)
    }
}

extension ConfigurationDecoder {
    /// An app's `optionalClaims:`; nil when it is no mapping (reported).
    mutating func optionalClaims(_ node: YAMLNode, at origin: Origin) -> OptionalClaims? {
        if node.isNull { return nil }
        guard let fields = fields(of: node, at: origin, table: OptionalClaimFields.table,
                                  notAMapping: "must be a mapping with idToken and accessToken lists") else { return nil }
        var claims = OptionalClaims()
        read(fields, OptionalClaimFields.table, into: &claims)
        return claims
    }

    /// The claim names listed for `token`: each a known optional claim (with a suggestion for a typo), one that
    /// goes into that token, listed once.
    mutating func optionalClaimNames(_ node: YAMLNode, at origin: Origin, token: OptionalClaim.Token) -> [OptionalClaim] {
        let names = withoutRepeats(strings(node, at: origin), ignoringCase: false)
        return names.compactMap { name in
            guard let claim = OptionalClaim(rawValue: name.value) else {
                var reason = "unknown optional claim '\(name.value)'"
                if let suggestion = ConfigurationSchema.suggestion(for: name.value, among: OptionalClaim.allCases.map(\.rawValue)) {
                    reason += "; did you mean '\(suggestion)'?"
                }
                report(name.origin, reason)
                return nil
            }
            guard claim.tokens.contains(token) else {
                let tokens = claim.tokens.map(\.rawValue).sorted().joined(separator: " and ")
                report(name.origin, "'\(claim.rawValue)' is an optional claim of \(tokens) only, not of \(token.rawValue)")
                return nil
            }
            return claim
        }
    }
}
