import MockIDPJOSE

/// One defect a relying party must refuse: a token issued with it is correct in every way but this one (the same
/// claims, a real signature by a published key, hashes that match) unless the defect is about that part.
///
/// The definitions (docs/relying-party-testing.md):
/// - `bad-signature`: the RS256 signature of the token with one bit flipped.
/// - `alg-none`: the clean token's header with `alg` set to `none` (`kid`, and v1's `x5t`, kept, as a real attack
///   keeps them) and an empty signature (`header.payload.`).
/// - `hs256-public-key`: header `alg: HS256` (same `kid`), signed with HMAC-SHA-256 keyed with the published key's
///   public PEM (`-----BEGIN PUBLIC KEY-----`, 64-character lines, final newline), the classic key-confusion attack.
/// - `unknown-kid`: `kid` (and v1's `x5t`) name no published key; RS256-signed with the active key.
/// - `no-kid`: the header has no `kid` (nor `x5t`); RS256-signed with the active key.
/// - `wrong-issuer`: `iss` on another host (`https://issuer.invalid/…`, same path); `tid` unchanged.
/// - `wrong-audience`: `aud` is a GUID of no app.
/// - `wrong-tenant`: `tid` is another tenant's GUID and `iss` names that tenant; validly signed.
/// - `expired`: `exp` ten minutes in the past, `iat` and `nbf` one lifetime before it.
/// - `not-yet-valid`: `nbf` ten minutes in the future, `exp` one lifetime after it.
/// - `issued-in-future`: `iat` ten minutes in the future (`nbf`, `exp` unchanged).
/// - `no-iat`, `no-sub`: the claim left out.
/// - `wrong-nonce`, `no-nonce`: the ID token's `nonce` replaced by another value, or left out.
/// - `bad-c_hash`, `bad-at_hash`: the ID token's hash replaced by a well-formed hash of nothing it was issued with.
/// - `wrong-azp`: the authorized party (`azp`; v1 access tokens' `appid`) is another client's GUID.
public enum TokenDefect: String, CaseIterable, Sendable, Equatable {
    /// The RS256 signature with one bit flipped.
    case badSignature = "bad-signature"
    /// `alg: none` in the clean header, and an empty signature.
    case algNone = "alg-none"
    /// HS256, keyed with the published key's public PEM (key confusion).
    case hs256PublicKey = "hs256-public-key"
    /// A `kid` that names no published key.
    case unknownKeyID = "unknown-kid"
    /// No `kid` in the header.
    case noKeyID = "no-kid"
    /// `iss` on another host.
    case wrongIssuer = "wrong-issuer"
    /// `aud` of no app.
    case wrongAudience = "wrong-audience"
    /// Another tenant's `tid` and issuer, validly signed.
    case wrongTenant = "wrong-tenant"
    /// `exp` ten minutes in the past.
    case expired
    /// `nbf` ten minutes in the future.
    case notYetValid = "not-yet-valid"
    /// `iat` ten minutes in the future.
    case issuedInFuture = "issued-in-future"
    /// No `iat`.
    case noIssuedAt = "no-iat"
    /// No `sub`.
    case noSubject = "no-sub"
    /// Another `nonce` (ID tokens with a nonce).
    case wrongNonce = "wrong-nonce"
    /// No `nonce` (ID tokens with a nonce).
    case noNonce = "no-nonce"
    /// A `c_hash` of nothing issued (hybrid ID tokens).
    case badCodeHash = "bad-c_hash"
    /// An `at_hash` of nothing issued (ID tokens issued with an access token).
    case badAccessTokenHash = "bad-at_hash"
    /// Another client as `azp` (v1 access tokens: `appid`).
    case wrongAuthorizedParty = "wrong-azp"

    /// The claim a token must carry for this defect to apply to it (an ID token's `nonce` and hashes); nil for
    /// defects every token can carry.
    package var requiredClaim: String? {
        switch self {
        case .wrongNonce, .noNonce: "nonce"
        case .badCodeHash: "c_hash"
        case .badAccessTokenHash: "at_hash"
        default: nil
        }
    }

    /// Whether a token of `kind` can carry this defect at all (nonce and hashes are ID tokens' only).
    package func applies(to kind: TokenKind) -> Bool {
        requiredClaim == nil || kind == .id
    }

    /// What a probe sends a relying party, in order: the clean token (nil), then one token per defect.
    package static let probeTokens: [TokenDefect?] = [nil] + allCases

    /// Whether `status`, a relying party's answer to a token with `defect` (nil: the clean token), is the one it must
    /// give: 2xx for the clean token, 401 or 403 for every defective one (`mockidp probe` and MockIDPTesting's probe).
    package static func probeVerdictHolds(_ defect: TokenDefect?, status: Int) -> Bool {
        defect == nil ? (200...299).contains(status) : [401, 403].contains(status)
    }

    /// The defects a token of `kind` can carry, as their names.
    package static func names(for kind: TokenKind?) -> [String] {
        allCases.filter { kind.map($0.applies(to:)) ?? true }.map(\.rawValue)
    }
}

/// Which token a defect goes into.
package enum TokenKind: String, Sendable, CaseIterable {
    case id
    case access
}

/// What applying a defect needs besides the token: another tenant for `wrong-tenant`, and fresh values.
package struct TamperInputs: Sendable {
    /// The GUID `wrong-tenant` moves the token to.
    package var otherTenantID: String
    /// Fresh random bytes for values that must look real but match nothing (a `kid`, a hash, a nonce, a GUID).
    package var random: @Sendable (Int) -> [UInt8]

    package init(otherTenantID: String, random: @escaping @Sendable (Int) -> [UInt8]) {
        self.otherTenantID = otherTenantID
        self.random = random
    }
}

extension TokenDefect {
    /// The compact JWS of `claims` (the token's payload as issued) with this defect, signed by `key` with the header
    /// of `version` unless the defect is about the header or signature.
    package func token(claims issued: JSONObject, key: SigningKey, version: TokenVersion, inputs: TamperInputs) throws(OAuthError) -> String {
        var claims = issued
        apply(to: &claims, inputs: inputs)
        var header: JSONObject = version == .v1 ? ["typ": "JWT", "alg": "RS256", "x5t": .string(key.keyID), "kid": .string(key.keyID)]
            : ["typ": "JWT", "alg": "RS256", "kid": .string(key.keyID)]
        switch self {
        // A validator that finds the key by `kid` and then trusts the header's `alg` is the one this defect catches,
        // so the header keeps everything else a clean token's has.
        case .algNone: header["alg"] = "none"
        case .hs256PublicKey: header["alg"] = "HS256"
        case .unknownKeyID:
            let kid = JSONValue.string(Base64URL.encode(inputs.random(20)))
            header["kid"] = kid
            if version == .v1 { header["x5t"] = kid }
        case .noKeyID:
            header["kid"] = nil
            header["x5t"] = nil
        default: break
        }
        var signingInput: [UInt8] = []
        Base64URL.append(JSONValue.object(header).serialized(), to: &signingInput)
        signingInput.append(UInt8(ascii: "."))
        Base64URL.append(JSONValue.object(claims).serialized(), to: &signingInput)
        var signature: [UInt8]
        switch self {
        case .algNone:
            signature = []
        case .hs256PublicKey:
            let pem: String
            do { pem = try key.privateKey.publicKey.pem } catch { throw Self.failure("the public key has no PEM: \(error)") }
            signature = Digest.hmacSHA256(key: Array(pem.utf8), data: signingInput)
        default:
            do { signature = try key.privateKey.sign(signingInput, algorithm: .rs256) } catch {
                throw Self.failure("signing failed: \(error)")
            }
            if self == .badSignature { signature[signature.count / 2] ^= 0x01 }
        }
        signingInput.append(UInt8(ascii: "."))
        Base64URL.append(signature, to: &signingInput)
        return String(decoding: signingInput, as: UTF8.self)
    }

    /// Changes `claims` as this defect says; header and signature defects leave them as they are.
    func apply(to claims: inout JSONObject, inputs: TamperInputs) {
        let tenMinutes = 600
        let issuedAt = claims["iat"]?.intValue ?? 0
        let lifetime = max(60, (claims["exp"]?.intValue ?? issuedAt + 3600) - issuedAt)
        switch self {
        case .badSignature, .algNone, .hs256PublicKey, .unknownKeyID, .noKeyID:
            break
        case .wrongIssuer:
            if case .string(let issuer) = claims["iss"] { claims["iss"] = .string(Self.onOtherHost(issuer)) }
        case .wrongAudience:
            claims["aud"] = .string(GUID.format(version: 4, inputs.random(16)))
        case .wrongTenant:
            let tenant = claims["tid"]?.stringValue
            claims["tid"] = .string(inputs.otherTenantID)
            if let tenant, case .string(let issuer) = claims["iss"] {
                claims["iss"] = .string(issuer.replacingOccurrences(of: tenant, with: inputs.otherTenantID))
            }
        case .expired:
            let expires = issuedAt - tenMinutes
            claims["iat"] = .int(expires - lifetime)
            claims["nbf"] = .int(expires - lifetime)
            claims["exp"] = .int(expires)
        case .notYetValid:
            claims["nbf"] = .int(issuedAt + tenMinutes)
            claims["exp"] = .int(issuedAt + tenMinutes + lifetime)
        case .issuedInFuture:
            claims["iat"] = .int(issuedAt + tenMinutes)
        case .noIssuedAt:
            claims["iat"] = nil
        case .noSubject:
            claims["sub"] = nil
        case .wrongNonce:
            claims["nonce"] = .string(Base64URL.encode(inputs.random(16)))
        case .noNonce:
            claims["nonce"] = nil
        case .badCodeHash:
            claims["c_hash"] = .string(Base64URL.encode(inputs.random(16)))
        case .badAccessTokenHash:
            claims["at_hash"] = .string(Base64URL.encode(inputs.random(16)))
        case .wrongAuthorizedParty:
            let other = JSONValue.string(GUID.format(version: 4, inputs.random(16)))
            if claims["appid"] != nil, claims["azp"] == nil { claims["appid"] = other } else { claims["azp"] = other }
        }
    }

    /// `scheme://host/path` with the host replaced by `host` (by default `issuer.invalid`; RFC 2606: never a real host).
    static func onOtherHost(_ issuer: String, host: String = "issuer.invalid") -> String {
        guard let scheme = issuer.firstRange(of: "://") else { return "https://\(host)/" + issuer }
        let rest = issuer[scheme.upperBound...]
        let path = rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? "/"
        return "https://\(host)" + path
    }

    private static func failure(_ why: String) -> OAuthError {
        OAuthError(code: .serverError, message: "The token could not be signed.", status: 500, reason: "tampering failed: \(why)")
    }
}

extension OAuthError {
    /// `mockidp token --defect` for a token that cannot carry the defect.
    package static func defectDoesNotApply(_ defect: TokenDefect, kind: TokenKind) -> OAuthError {
        let allowed = TokenDefect.names(for: kind).filter { TokenDefect(rawValue: $0)?.requiredClaim == nil }
        return OAuthError(code: .invalidRequest, message: "The defect '\(defect.rawValue)' cannot be applied to this token.",
                          reason: "'\(defect.rawValue)' breaks the \(defect.requiredClaim ?? "") claim, which this \(kind.rawValue) token does not carry; defects for it: \(allowed.joined(separator: ", "))")
    }
}
