import MockIDPJOSE

/// An external OpenID issuer whose tokens federated credentials may accept, with where its signing keys are.
/// This server's own tenants need no entry: their v2 issuers are trusted with the server's own keys.
public struct TrustedIssuer: Sendable, Equatable {
    /// The issuer, exactly as its tokens write `iss`.
    public var issuer: String
    /// Where its keys come from.
    public var keys: TrustedIssuerKeys

    /// An issuer whose tokens are checked against `keys`.
    public init(issuer: String, keys: TrustedIssuerKeys) {
        self.issuer = issuer
        self.keys = keys
    }
}

/// Where a trusted issuer's signing keys come from.
public enum TrustedIssuerKeys: Sendable, Equatable {
    /// A JWKS file read when the configuration loads: its path as the configuration names it, and the keys.
    case file(source: String, keySet: JSONWebKeySet)
    /// A JWKS URL, fetched at start and again (rate-limited) when a token names a key it does not hold.
    case uri(String)
}

extension TrustedIssuerKeys {
    /// The keys of a JWKS file's bytes, or why they cannot serve: the file must hold a JWKS (`{"keys": […]}`)
    /// with at least one RSA key whose `n` and `e` make a usable public key (workload identity federation
    /// supports RS256 issuers only: Microsoft Learn, "Supported signing algorithms and issuers").
    public static func file(source: String, bytes: [UInt8]) -> Result<TrustedIssuerKeys, KeySetProblem> {
        let json: JSONValue
        do { json = try JSONValue.parse(bytes) } catch { return .failure(KeySetProblem(description: "is not JSON: \(error.reason)")) }
        return keySet(json).map { .file(source: source, keySet: $0) }
    }

    /// `json` as a key set a trusted issuer may use (see `file(source:bytes:)`).
    package static func keySet(_ json: JSONValue) -> Result<JSONWebKeySet, KeySetProblem> {
        let keySet: JSONWebKeySet
        do { keySet = try JSONWebKeySet(json: json) } catch {
            return .failure(KeySetProblem(description: "is not a JSON Web Key Set: \(error.reason)"))
        }
        guard !keySet.keys.isEmpty else { return .failure(KeySetProblem(description: "holds no RSA key (federated tokens are RS256)")) }
        for key in keySet.keys {
            do { _ = try key.publicKey() } catch {
                return .failure(KeySetProblem(description: "key '\(key.keyID)' is not a usable RSA public key"))
            }
        }
        return .success(keySet)
    }
}

/// Why a key set cannot serve a trusted issuer, as a clause (`is not JSON: …`).
public struct KeySetProblem: Error, Sendable, CustomStringConvertible {
    /// The clause.
    public var description: String

    /// A problem saying `description`.
    public init(description: String) { self.description = description }
}

extension TrustedIssuer {
    /// The tenant GUID (lower-case) when `issuer` has the shape of a v2 issuer of this server's tenants,
    /// `https://{host}/{tenant GUID}/v2.0`, under any scheme and host (one server answers for many hosts, and
    /// `--public-url` or a cloud's login host decide what its tokens say); nil otherwise. Whether the GUID is a
    /// tenant of this server, and whether this server's keys signed the token, are the caller's to check.
    package static func ownTenantID(ofIssuer issuer: String) -> String? {
        let lower = issuer.lowercased()
        let rest: Substring
        if lower.hasPrefix("https://") { rest = lower.dropFirst(8) } else if lower.hasPrefix("http://") { rest = lower.dropFirst(7) } else { return nil }
        guard let slash = rest.firstIndex(of: "/"), slash != rest.startIndex else { return nil }
        let path = rest[rest.index(after: slash)...].split(separator: "/", omittingEmptySubsequences: false)
        guard path.count == 2, path[1] == "v2.0", GUID.isValid(String(path[0])) else { return nil }
        return String(path[0])
    }
}
