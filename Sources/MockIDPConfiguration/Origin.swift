/// Where a value of the configuration came from: the file, the line and the path inside the document.
/// Values keep their origin through merging, so a problem found later still names the right place.
struct Origin: Sendable, Equatable {
    var file: String
    var line: Int
    var path: String

    /// A problem about the value found here.
    func problem(_ reason: String) -> ConfigurationProblem {
        ConfigurationProblem(file: file, line: line, path: path, reason: reason)
    }

    /// How another message names this place: `line 12` in the same file, `other.yaml:12` elsewhere.
    func reference(from other: Origin) -> String {
        other.file == file ? "line \(line)" : "\(file):\(line)"
    }
}

/// A value with the place it came from.
struct Sourced<Value> {
    var value: Value
    var origin: Origin
}

extension Sourced: Sendable where Value: Sendable {}

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

extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
