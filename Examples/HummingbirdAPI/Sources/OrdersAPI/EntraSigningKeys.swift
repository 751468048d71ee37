import AsyncHTTPClient
import Foundation
import JWTKit
import NIOCore

/// The tenant's issuer and signing keys, read from its OpenID Connect discovery document and the key set its
/// `jwks_uri` names, cached, and fetched again when a token names a key the cache does not hold (Entra rolls its keys
/// over and new tokens name the new one first), at most once per `refreshInterval`.
///
/// That is what Microsoft.IdentityModel does for ASP.NET Core (Microsoft Learn, "Build services that are resilient to
/// Microsoft Entra ID OpenID Connect metadata refresh": `RefreshOnIssuerKeyNotFound`; its
/// `BaseConfigurationManager.DefaultRefreshInterval` is 5 minutes).
actor EntraSigningKeys {
    /// The keys in jwt-kit's form, and what the discovery document said.
    struct Snapshot {
        var issuer: String
        var keyIDs: Set<String>
        var keys: JWTKeyCollection
        var fetched: Date
    }

    let discoveryURL: String
    let refreshInterval: TimeInterval
    let http: HTTPClient
    private var snapshot: Snapshot?

    init(authority: String, refreshInterval: TimeInterval, http: HTTPClient) {
        // The v2 endpoint's document names the v2 issuer, https://login.microsoftonline.com/{tenant}/v2.0.
        discoveryURL = authority + "/v2.0/.well-known/openid-configuration"
        self.refreshInterval = refreshInterval
        self.http = http
    }

    /// The issuer and the keys, holding `keyID` if the tenant publishes it.
    func keys(holding keyID: String) async throws(EntraTokenError) -> Snapshot {
        if let snapshot, snapshot.keyIDs.contains(keyID) || Date().timeIntervalSince(snapshot.fetched) < refreshInterval {
            return snapshot
        }
        let fresh = try await fetch()
        snapshot = fresh
        return fresh
    }

    private struct Discovery: Decodable {
        var issuer: String
        var jwks_uri: String
    }

    /// A key of Entra's key set: `kty`, `use`, `kid`, `n`, `e` (and `x5t`, `x5c`, `issuer`, unused here).
    private struct PublishedKey: Decodable {
        var kty: String
        var use: String?
        var kid: String?
        var n: String?
        var e: String?
    }

    private struct PublishedKeySet: Decodable {
        var keys: [PublishedKey]
    }

    private func fetch() async throws(EntraTokenError) -> Snapshot {
        do {
            let discovery = try await get(discoveryURL, as: Discovery.self)
            let published = try await get(discovery.jwks_uri, as: PublishedKeySet.self)
            let keys = JWTKeyCollection()
            var keyIDs: Set<String> = []
            // RSA signing keys only, each pinned to RS256: jwt-kit would otherwise take the algorithm from the token's
            // own header for a key that names none (Entra's name none).
            for key in published.keys where key.kty == "RSA" && (key.use ?? "sig") == "sig" {
                guard let kid = key.kid, let n = key.n, let e = key.e else { continue }
                try await keys.add(jwk: .rsa(.rs256, identifier: JWKIdentifier(string: kid), modulus: n, exponent: e))
                keyIDs.insert(kid)
            }
            return Snapshot(issuer: discovery.issuer, keyIDs: keyIDs, keys: keys, fetched: Date())
        } catch let error as EntraTokenError {
            throw error
        } catch {
            throw .keysUnavailable("the tenant's keys could not be read: \(error)")
        }
    }

    private func get<Document: Decodable>(_ url: String, as: Document.Type) async throws -> Document {
        let response = try await http.execute(HTTPClientRequest(url: url), timeout: .seconds(10))
        guard response.status == .ok else {
            throw EntraTokenError.keysUnavailable("\(url) answered \(response.status.code)")
        }
        let body = try await response.body.collect(upTo: 1 << 20)
        return try JSONDecoder().decode(Document.self, from: Data(body.readableBytesView))
    }
}
