/// One thing wrong with a configuration, where it is and why, printed as `FILE:LINE: PATH: reason`,
/// for example `contoso.yaml:12: tenants[0].apps[1].clientId: must be a GUID`.
///
/// `line` is 1-based; 0 means the file as a whole (it cannot be read, it is too large), and the line
/// is then left out. `path` names the value the way the document nests it (`tenants[0].users[1]`,
/// `apiPermissions["api://contoso-api"][0]`); it is empty for problems of the YAML text itself
/// (a syntax error), and is then left out too.
public struct ConfigurationProblem: Sendable, Equatable, CustomStringConvertible {
    /// The file the offending value came from, as it was named to the loader.
    public var file: String
    /// The 1-based line of the offending value, or 0 for the whole file.
    public var line: Int
    /// Where the value sits in the document, or empty.
    public var path: String
    /// Why it is wrong, as a short clause ("must be a GUID").
    public var reason: String

    /// A problem at `line` of `file` (0: the whole file), at `path` in the document (empty: none).
    public init(file: String, line: Int, path: String, reason: String) {
        self.file = file
        self.line = line
        self.path = path
        self.reason = reason
    }

    /// `FILE:LINE: PATH: reason`, without `LINE` when it is 0 and without `PATH` when it is empty.
    public var description: String {
        var text = file
        if line > 0 { text += ":\(line)" }
        text += ": "
        if !path.isEmpty { text += path + ": " }
        return text + reason
    }
}
