import MockIDPText

/// Paths as problems print them: `tenants[0].apps[1].clientId`, `apiPermissions["api://contoso-api"][0]`.
enum DocumentPath {
    /// `base.key`, or `base["key"]` for a key that is not a plain name.
    static func appending(key: String, to base: String) -> String {
        if isPlainName(key) { return base.isEmpty ? key : base + "." + key }
        var quoted = "\""
        for character in key.unicodeScalars {
            switch character {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            default: quoted.unicodeScalars.append(character)
            }
        }
        return base + "[" + quoted + "\"]"
    }

    /// `base[index]`.
    static func appending(index: Int, to base: String) -> String { base + "[\(index)]" }

    private static func isPlainName(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, first.isASCIILetter || first == "_" else { return false }
        return key.unicodeScalars.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0 == "_" || $0 == "-" }
    }
}
