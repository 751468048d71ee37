import MockIDPCore

/// The configuration's limits, typo suggestions and JSON Schema. The keys each mapping may hold, in the order
/// `mockidp config print` writes them, are the field tables' (`RootFields`, `TokenFields`, `TenantFields`,
/// `B2CFields`, `UserFields`, `AppFields`).
package enum ConfigurationSchema {
    /// Token lifetimes: at least a minute (a code at least a second), at most ten years.
    static let lifetimeRange = 60...315_360_000
    static let codeLifetimeRange = 1...315_360_000
    /// Claims nest at most this deep (token JSON is read back with a depth limit of 64).
    static let maximumClaimDepth = 32
    /// Certificate files larger than this are refused unread.
    static let maximumCertificateBytes = 1 << 20

    /// The JSON Schema of a configuration file (draft 2020-12), every key with its description: what
    /// `mockidp config schema` prints.
    package static var jsonSchema: ClaimSet {
        var schema: ClaimSet = ["$schema": "https://json-schema.org/draft/2020-12/schema", "title": "mockidp configuration"]
        schema.merge(RootFields.table.schema.jsonSchema)
        return schema
    }

    /// The JSON Schema as `mockidp config schema` prints it and `config/mockidp.schema.json` holds it: indented
    /// two spaces, keys in the field tables' order, a newline at the end.
    package static var jsonSchemaText: String { ClaimValue.object(jsonSchema).prettyJSONString + "\n" }

    /// The known key closest to `unknown` (at most two edits away, ignoring case), to suggest for a typo.
    static func suggestion(for unknown: String, among known: [String]) -> String? {
        let typed = Array(unknown.lowercased().unicodeScalars)
        guard typed.count <= 64 else { return nil }
        var best: (key: String, distance: Int)?
        for key in known {
            let candidate = Array(key.lowercased().unicodeScalars)
            guard abs(candidate.count - typed.count) <= 2 else { continue }
            let distance = editDistance(typed, candidate)
            guard distance <= 2, distance < min(typed.count, candidate.count) else { continue }
            if let closest = best, closest.distance <= distance { continue }
            best = (key, distance)
        }
        return best?.key
    }

    /// Levenshtein distance; keys are short, so the plain dynamic programme is fine.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
