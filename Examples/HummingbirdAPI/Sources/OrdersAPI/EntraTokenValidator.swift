import AsyncHTTPClient
import Foundation
import JWTKit

/// Why a token was refused.
public enum EntraTokenError: Error, Sendable, CustomStringConvertible {
    /// No token, a malformed one, or one not signed by the tenant or not for this API: 401 `invalid_token`.
    case invalidToken(String)
    /// A valid token without the scope the route needs: 403 `insufficient_scope`.
    case insufficientScope(String)
    /// The tenant's keys could not be read; the token may be fine: 503.
    case keysUnavailable(String)

    public var description: String {
        switch self {
        case .invalidToken(let why), .insufficientScope(let why), .keysUnavailable(let why): why
        }
    }
}

/// Validates a Microsoft Entra v2 access token the way an API must: the signature by a key of the tenant's published
/// key set (RS256 only), the issuer, the audience, the lifetime, the tenant, the calling application and the scope.
///
/// Microsoft Learn, "Secure applications and APIs by validating claims": the audience (v2 tokens: the API's client
/// ID; v1 tokens: one of its App ID URIs), the tenant ID, the subject and the actor (the client app, `azp`); and
/// "Microsoft identity platform access tokens": the signature with a key of the tenant's key set, the issuer, the
/// lifetime, and the scopes (`scp`) the route needs.
public struct EntraTokenValidator: Sendable {
    /// What this API accepts.
    public struct Settings: Sendable {
        /// The tenant's authority: `https://login.microsoftonline.com/{tenant-id}` (or mockidp's in tests).
        public var authority: String
        /// The tenant whose tokens are accepted (`tid`).
        public var tenantID: String
        /// The API's own identities as `aud` names them: its client ID (v2 tokens) and its App ID URI (v1 tokens).
        public var audiences: Set<String>
        /// The delegated scope every caller must have been granted (`scp`).
        public var requiredScope: String
        /// The client applications allowed to call (`azp`).
        public var allowedClients: Set<String>
        /// Clock skew allowed on `exp`, `nbf` and `iat`.
        public var leeway: TimeInterval = 60
        /// At most one key-set fetch per this interval when a token names an unknown key.
        public var keyRefreshInterval: TimeInterval = 300
        /// Checks that `aud` names this API. Never turn it off: the example's second route does, to show that
        /// mockidp's probe catches it.
        public var checksAudience = true

        public init(authority: String, tenantID: String, audiences: Set<String>, requiredScope: String,
                    allowedClients: Set<String>) {
            self.authority = authority
            self.tenantID = tenantID
            self.audiences = audiences
            self.requiredScope = requiredScope
            self.allowedClients = allowedClients
        }
    }

    public let settings: Settings
    let keys: EntraSigningKeys

    public init(_ settings: Settings, http: HTTPClient = .shared) {
        self.settings = settings
        keys = EntraSigningKeys(authority: settings.authority, refreshInterval: settings.keyRefreshInterval, http: http)
    }

    /// The token's claims when every check holds; else why not.
    public func validate(_ token: String, now: Date = Date()) async throws(EntraTokenError) -> EntraAccessToken {
        // The header first: RS256 and a key ID, before any key is looked at. jwt-kit verifies a token without a
        // `kid`, or with one it does not hold, with its default key, so an API must insist on a known `kid` itself.
        let header = try Self.header(of: token)
        guard header.alg == "RS256" else { throw .invalidToken("the token is signed with \(header.alg ?? "no algorithm"), not RS256") }
        guard let keyID = header.kid else { throw .invalidToken("the token names no signing key (kid)") }
        let published = try await keys.keys(holding: keyID)
        guard published.keyIDs.contains(keyID) else { throw .invalidToken("the tenant publishes no key '\(keyID)'") }

        let claims: EntraAccessToken
        do {
            claims = try await published.keys.verify(token, as: EntraAccessToken.self)
        } catch {
            throw .invalidToken("the signature or the claims do not hold: \(error)")
        }

        guard claims.iss.value == published.issuer else { throw .invalidToken("issued by \(claims.iss.value), not \(published.issuer)") }
        guard claims.tid == settings.tenantID else { throw .invalidToken("issued in tenant \(claims.tid)") }
        if settings.checksAudience {
            guard !settings.audiences.isDisjoint(with: claims.aud.value) else { throw .invalidToken("meant for \(claims.aud.value), not this API") }
        }
        do {
            try claims.exp.verifyNotExpired(currentDate: now.addingTimeInterval(-settings.leeway))
            try claims.nbf.verifyNotBefore(currentDate: now.addingTimeInterval(settings.leeway))
        } catch {
            throw .invalidToken("outside its lifetime: \(error)")
        }
        guard claims.iat.value <= now.addingTimeInterval(settings.leeway) else { throw .invalidToken("issued in the future") }
        guard settings.allowedClients.contains(claims.azp) else { throw .invalidToken("client \(claims.azp) may not call this API") }
        guard claims.scp?.split(separator: " ").contains(Substring(settings.requiredScope)) == true else {
            throw .insufficientScope("the token does not grant \(settings.requiredScope)")
        }
        return claims
    }

    /// The token's header, decoded without trusting it.
    static func header(of token: String) throws(EntraTokenError) -> JWTHeader {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let json = base64URLDecoded(parts[0]),
              let header = try? JSONDecoder().decode(JWTHeader.self, from: json) else {
            throw .invalidToken("not a signed JWT (header.payload.signature)")
        }
        return header
    }

    static func base64URLDecoded(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
