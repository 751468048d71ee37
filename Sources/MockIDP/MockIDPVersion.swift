/// The version `mockidp --version` prints.
public enum MockIDPVersion {
    public static let current = "0.1.0"
}
