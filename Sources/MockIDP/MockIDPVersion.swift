/// The version `mockidp --version` prints.
public enum MockIDPVersion {
    /// The version `--version` prints.
    public static let current = "0.1.0"
}
