import MockIDPCore

/// Reads configuration files (YAML, or JSON) into the `IdentityProviderConfiguration` the provider serves:
/// decoding, merging several files, validating, and filling in defaults. Every problem is reported at once.
///
/// Reading rules worth knowing:
/// - An empty file (or one holding only comments) is a valid configuration without tenants.
/// - A string field takes any scalar's text as written (`password: 12345` is the password "12345").
/// - Booleans and numbers follow Yams' resolver (YAML 1.1): `true/false`, also `yes/no/on/off`, are booleans;
///   `0x1F` and `0755` are numbers. Claims keep these types; quote a claim value to keep it a string.
/// - An empty value (`name:`, `~`, `null`) is the same as leaving the key out; an empty list is `[]` or nothing.
/// - Anchors, aliases and merge keys (`<<: *base`) work; aliases may add at most 1,000,000 values to a document.
/// - A file may hold at most 8 MiB, one YAML document, and nesting at most 1000 levels deep (claims: 32).
package enum ConfigurationLoader {
    /// The name the embedded default configuration goes by in problems.
    package static let embeddedDefaultName = "<embedded default>"

    /// The embedded default configuration (`config/default.yaml`, compiled into the module).
    package static var embeddedDefaultText: String { String(decoding: PackageResources.default_yaml, as: UTF8.self) }

    /// Builds the field tables every read goes through (key paths and closures, made on first use), so that a
    /// caller with a core to spare can have that done before the first configuration arrives.
    package static func prepare() {
        _ = RootFields.table
    }

    /// Loads the files in order and merges them (see `merge(_:)`); with no files, the embedded default.
    /// Validates the merged result.
    package static func load(paths: [String]) throws(ConfigurationError) -> IdentityProviderConfiguration {
        guard !paths.isEmpty else {
            return try parse(text: embeddedDefaultText, fileName: embeddedDefaultName, baseDirectory: ".")
        }
        var problems = ProblemList()
        var merged = ConfigurationOverlay()
        for path in paths {
            let document: YAMLDocument
            switch FileContents.read(path, limit: YAMLDocument.maximumBytes) {
            case .success(let bytes):
                document = YAMLDocument.read(bytes: bytes, file: path)
            case .failure(.tooLarge):
                document = YAMLDocument.tooLarge(file: path)
            case .failure(let failure):
                problems.append(ConfigurationProblem(file: path, line: 0, path: "", reason: "cannot be read: \(failure)"))
                continue
            }
            var decoder = ConfigurationDecoder(file: path, baseDirectory: FileContents.directory(of: path))
            merged.merge(decoder.decode(document))
            problems.append(contentsOf: decoder.problems)
        }
        problems.append(contentsOf: ConfigurationValidator.problems(in: merged))
        guard problems.isEmpty else { throw ConfigurationError(problems: problems.sorted(fileOrder: paths)) }
        return merged.takeConfiguration()
    }

    /// Frees a configuration its caller is done with on another thread, when it is large (see `Parallel.release`).
    package static func releaseInBackground(_ configuration: consuming IdentityProviderConfiguration) {
        let tenants = configuration.tenants.count
        Parallel.release(configuration, unlessSmallerThan: 256, count: tenants)
    }

    /// Parses one document (YAML or JSON) and validates it. Reads no file but the certificates it names,
    /// which resolve against `baseDirectory`. `fileName` names the document in problems.
    package static func parse(text: String, fileName: String, baseDirectory: String) throws(ConfigurationError)
        -> IdentityProviderConfiguration {
        var decoder = ConfigurationDecoder(file: fileName, baseDirectory: baseDirectory)
        var overlay = decoder.decode(YAMLDocument.read(text: text, file: fileName))
        var problems = decoder.problems
        problems.append(contentsOf: ConfigurationValidator.problems(in: overlay))
        guard problems.isEmpty else { throw ConfigurationError(problems: problems.sorted(fileOrder: [fileName])) }
        return overlay.takeConfiguration()
    }

    /// Merges configurations in order, as `load(paths:)` merges files:
    ///
    /// - `tokens`: each lifetime a later file sets overrides the earlier one.
    /// - `hosts`: the union, in order of first appearance, without duplicates.
    /// - `trustedIssuers`: joined; a later file's entry for an issuer an earlier file trusts replaces it (its keys).
    /// - `tenants` merge by `id`. A later tenant with the id of an earlier one overrides the scalar fields it
    ///   sets (`name`, `cloud`, `regionSubScope`, and `b2c` as a whole), adds its `domains` to the earlier ones (without
    ///   duplicates, ignoring case), replaces whole each user with the same `username` (ignoring case) and
    ///   each app with the same `clientId`, and adds the other users and apps after the earlier ones.
    ///   A tenant with a new id is added after the earlier tenants.
    /// - Within one file nothing merges: two tenants with one id, or two users with one username, in the
    ///   same file are a problem.
    /// - Validation runs on the merged result; each problem names the file and line its value came from.
    ///
    /// Files say exactly which fields they set. Built configurations cannot, so here a value equal to its
    /// default (a lifetime of 3600 seconds, the public cloud) counts as not set and does not override.
    /// This function does not validate.
    package static func merge(_ configurations: [IdentityProviderConfiguration]) -> IdentityProviderConfiguration {
        var merged = ConfigurationOverlay()
        for configuration in configurations { merged.merge(ConfigurationOverlay(configuration)) }
        return merged.configuration
    }
}
