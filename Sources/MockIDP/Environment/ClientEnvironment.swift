/// The environment variables SDKs read to trust and reach a mockidp server, as `mockidp env` prints them for one
/// shell or as a dotenv file.
///
/// Each variable is one an SDK reads unchanged:
/// - `SSL_CERT_FILE`: OpenSSL's default verify file (Python's `ssl`, curl built on OpenSSL, Ruby, Go on Linux).
/// - `REQUESTS_CA_BUNDLE`: Python `requests` (so MSAL Python and azure-identity), which prefers it over `verify=`.
/// - `NODE_EXTRA_CA_CERTS`: Node.js adds these to its built-in roots (MSAL Node, @azure/identity).
/// - `CURL_CA_BUNDLE`: the curl tool, and `requests` when `REQUESTS_CA_BUNDLE` is not set.
/// - `AZURE_AUTHORITY_HOST`: azure-identity's authority host in every language (Python, .NET, JS, Java, Go).
///
/// Managed identity adds its variables through `adding(_:_:)` (`IDENTITY_ENDPOINT` and `IDENTITY_HEADER` for the
/// App Service endpoint, `AZURE_POD_IDENTITY_AUTHORITY_HOST` for the instance metadata service), once `serve` has
/// the plain-HTTP listener and identity header they name.
package struct ClientEnvironment: Sendable, Equatable {
    /// One variable and its value.
    package struct Variable: Sendable, Equatable {
        package var name: String
        package var value: String
    }

    /// How the variables are written.
    package enum Format: String, Sendable, CaseIterable {
        /// POSIX shells (`sh`, `bash`, `zsh`, `dash`): `export NAME='value'`.
        case sh
        /// The fish shell: `set -gx NAME 'value'`.
        case fish
        /// PowerShell: `$env:NAME = 'value'`.
        case powershell
        /// A dotenv file (`docker compose`'s `env_file`, python-dotenv, `.env` of editors): `NAME=value`.
        case dotenv
    }

    /// The variables, in the order they are printed.
    package private(set) var variables: [Variable]

    /// The variables that trust the CA at `caPath` (absolute) and send azure-identity to `authorityHost`, a base URL.
    package init(caPath: String, authorityHost: String) {
        variables = ["SSL_CERT_FILE", "REQUESTS_CA_BUNDLE", "NODE_EXTRA_CA_CERTS", "CURL_CA_BUNDLE"]
            .map { Variable(name: $0, value: caPath) }
        variables.append(Variable(name: "AZURE_AUTHORITY_HOST", value: authorityHost))
    }

    /// These variables and one more (replacing a variable of that name).
    package func adding(_ name: String, _ value: String) -> ClientEnvironment {
        var copy = self
        copy.variables.removeAll { $0.name == name }
        copy.variables.append(Variable(name: name, value: value))
        return copy
    }

    /// The text to evaluate in the shell (or to save as a dotenv file), one variable a line, a newline at the end.
    /// Throws when a value cannot be written in a dotenv file (a quote or a line break in it).
    package func rendered(as format: Format) throws(ClientEnvironmentError) -> String {
        var text = ""
        for variable in variables {
            switch format {
            case .sh: text += "export \(variable.name)=\(Self.shellQuoted(variable.value))\n"
            case .fish: text += "set -gx \(variable.name) \(Self.fishQuoted(variable.value))\n"
            case .powershell: text += "$env:\(variable.name) = \(Self.powerShellQuoted(variable.value))\n"
            case .dotenv: text += "\(variable.name)=\(try Self.dotenvValue(variable))\n"
            }
        }
        return text
    }

    /// POSIX single quotes keep every character but `'` as it is; a `'` closes, is escaped and reopens
    /// (POSIX.1-2017, Shell Command Language 2.2.2-2.2.3).
    package static func shellQuoted(_ value: String) -> String {
        "'" + value.replacing("'", with: "'\\''") + "'"
    }

    /// fish's single quotes keep everything but `\'` and `\\` (fish documentation, "Quotes").
    package static func fishQuoted(_ value: String) -> String {
        "'" + value.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }

    /// PowerShell's verbatim strings: `'` is written twice, nothing else is special (about_Quoting_Rules).
    /// The typographic single quotes PowerShell also takes as quotes are doubled the same way.
    package static func powerShellQuoted(_ value: String) -> String {
        var quoted = "'"
        for character in value {
            if character == "'" || character == "\u{2018}" || character == "\u{2019}" || character == "\u{201A}" || character == "\u{201B}" {
                quoted.append(character)
            }
            quoted.append(character)
        }
        return quoted + "'"
    }

    /// A dotenv value: bare when it holds only characters no dotenv reader treats specially (Docker's `--env-file`
    /// takes values literally, quotes included), else in single quotes, which Compose and python-dotenv read
    /// literally. A value with a single quote or a line break has no spelling every reader agrees on.
    static func dotenvValue(_ variable: Variable) throws(ClientEnvironmentError) -> String {
        let value = variable.value
        let plain = value.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || scalar.properties.numericType != nil || "_-./:@%+,=".unicodeScalars.contains(scalar))
        }
        if plain && !value.isEmpty { return value }
        guard !value.contains("'"), !value.contains(where: \.isNewline) else {
            throw ClientEnvironmentError("\(variable.name) cannot be written in a dotenv file: its value holds a quote or a line break (\(value.debugDescription))")
        }
        return "'" + value + "'"
    }
}

/// `mockidp env` cannot write the variables; says why in one sentence.
package struct ClientEnvironmentError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    package var description: String
    init(_ description: String) { self.description = description }
}
