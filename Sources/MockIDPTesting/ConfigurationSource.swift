import MockIDPConfiguration
import MockIDPCore

/// Where the configuration of an in-process mock identity provider comes from.
public enum ConfigurationSource: Sendable {
    /// The embedded default (`config/default.yaml`: tenants Contoso and Fabrikam, users alice and bob, four apps).
    case embeddedDefault
    /// A YAML document, validated as `mockidp config check` would. JSON is YAML too, so `.yaml` reads it as well.
    case yaml(String)
    /// A JSON document (read like `.yaml`; named for clarity at the call site).
    case json(String)
    /// Configuration files, merged in order as several `--config` flags are.
    case files([String])
    /// A configuration built in code (it is not validated again).
    case value(IdentityProviderConfiguration)

    /// The configuration this source describes; `ConfigurationError` lists every problem with its line.
    public func load() throws(ConfigurationError) -> IdentityProviderConfiguration {
        switch self {
        case .embeddedDefault:
            return try ConfigurationLoader.load(paths: [])
        case .yaml(let text), .json(let text):
            // Certificates named in the text resolve against the working directory, as `--config -` would.
            return try ConfigurationLoader.parse(text: text, fileName: "<configuration text>", baseDirectory: ".")
        case .files(let paths):
            return try ConfigurationLoader.load(paths: paths)
        case .value(let configuration):
            return configuration
        }
    }
}
