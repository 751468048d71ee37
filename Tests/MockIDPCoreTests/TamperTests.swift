import MockIDPCore
import MockIDPJOSE
import Testing

/// Tokens with exactly one defect: each carries its defect and is intact in every other way.
@Suite struct TamperTests {
    let provider = Fixtures.provider()
    /// Claims drawn fresh for every token, which a clean and a defective token never share.
    static let opaque: Set<String> = ["aio", "rh", "uti"]

    struct Parts {
        var header: JSONObject
        /// The header as the token carries it (its members in their order).
        var headerText: String
        var claims: JSONObject
        var signingInput: [UInt8]
        var signature: [UInt8]

        init(_ token: String) throws {
            let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            try #require(parts.count == 3)
            let headerBytes = try #require(Base64URL.decode(parts[0]))
            let claimsBytes = try #require(Base64URL.decode(parts[1]))
            header = try #require(try JSONValue.parse(headerBytes).objectValue)
            headerText = String(decoding: headerBytes, as: UTF8.self)
            claims = try #require(try JSONValue.parse(claimsBytes).objectValue)
            signingInput = Array((parts[0] + "." + parts[1]).utf8)
            signature = try #require(Base64URL.decode(parts[2]))
        }
    }

    func mint(_ kind: MintRequest.Kind, defect: TokenDefect?) throws -> String {
        let request = kind == .access
            ? MintRequest(kind: .access, tenant: Fixtures.contosoID, clientID: Fixtures.daemon, scopes: ["api://contoso-api/.default"],
                          baseURL: "https://localhost:8443", defect: defect)
            : MintRequest(kind: .id, tenant: Fixtures.contosoID, clientID: Fixtures.mobile, username: "alice@contoso.onmicrosoft.com",
                          claims: [("nonce", "n-0S6_WzA2Mj"), ("c_hash", "LDktKdoQak3Pk0cnXxCltA"), ("at_hash", "77QmUPtjPfzWtF2AnpK9RQ")],
                          baseURL: "https://localhost:8443", defect: defect)
        return try provider.minting.mint(request).get()
    }

    /// The claims `defect` changes, and how.
    static func expected(_ defect: TokenDefect, clean: JSONObject) -> JSONObject? {
        let iat = clean["iat"]?.intValue ?? 0
        let exp = clean["exp"]?.intValue ?? 0
        switch defect {
        case .expired: return ["iat": .int(iat - 600 - 3600), "nbf": .int(iat - 600 - 3600), "exp": .int(iat - 600)]
        case .notYetValid: return ["nbf": .int(iat + 600), "exp": .int(iat + 600 + 3600)]
        case .issuedInFuture: return ["iat": .int(iat + 600)]
        case .noIssuedAt: return ["iat": .null]
        case .noSubject: return ["sub": .null]
        case .noNonce: return ["nonce": .null]
        case .wrongTenant:
            let issuer = clean["iss"]?.stringValue ?? ""
            return ["tid": .string(Fixtures.fabrikamID),
                    "iss": .string(issuer.replacing(Fixtures.contosoID, with: Fixtures.fabrikamID))]
        default: _ = exp; return nil
        }
    }

    @Test("each defect breaks exactly what it names, and the signature is real unless the defect is about it",
          arguments: TokenDefect.allCases)
    func oneDefect(defect: TokenDefect) throws {
        let kind: MintRequest.Kind = defect.applies(to: .access) ? .access : .id
        let clean = try Parts(try mint(kind, defect: nil))
        let token = try mint(kind, defect: defect)
        let key = Fixtures.signingKey
        let changed: Set<String> = Set(clean.claims.keys).union(Set(try Parts(token).claims.keys)).filter { name in
            (try? Parts(token))?.claims[name] != clean.claims[name]
        }.subtracting(Self.opaque)
        let bad = try Parts(token)

        // The claims: only the ones the defect names differ.
        switch defect {
        case .badSignature, .algNone, .hs256PublicKey, .unknownKeyID, .noKeyID:
            #expect(changed.isEmpty, "\(changed)")
        case .wrongIssuer:
            #expect(changed == ["iss"])
            #expect(bad.claims["iss"]?.stringValue == "https://issuer.invalid/\(Fixtures.contosoID)/v2.0")
        case .wrongAudience, .wrongAuthorizedParty, .wrongNonce, .badCodeHash, .badAccessTokenHash:
            let claim = ["wrong-audience": "aud", "wrong-azp": "azp", "wrong-nonce": "nonce", "bad-c_hash": "c_hash",
                         "bad-at_hash": "at_hash"][defect.rawValue]!
            #expect(changed == [claim])
            #expect(bad.claims[claim] != nil && bad.claims[claim] != clean.claims[claim])
        default:
            let expected = try #require(Self.expected(defect, clean: clean.claims))
            #expect(changed == Set(expected.keys), "\(changed)")
            for (name, value) in expected { #expect((bad.claims[name] ?? .null) == value, "\(name)") }
        }

        // The header and signature.
        switch defect {
        case .algNone:
            #expect(bad.headerText == Self.withAlgNone(clean.headerText), "\(bad.headerText)")
            #expect(bad.header["kid"] == .string(key.keyID))
            #expect(bad.signature.isEmpty && token.hasSuffix("."))
        case .hs256PublicKey:
            #expect(bad.header == ["typ": "JWT", "alg": "HS256", "kid": .string(key.keyID)])
            let pem = try key.privateKey.publicKey.pem
            #expect(pem.hasPrefix("-----BEGIN PUBLIC KEY-----\n") && pem.hasSuffix("-----END PUBLIC KEY-----\n"))
            #expect(bad.signature == Digest.hmacSHA256(key: Array(pem.utf8), data: bad.signingInput))
        case .unknownKeyID:
            #expect(bad.header["kid"] != nil && bad.header["kid"] != clean.header["kid"])
            #expect(key.privateKey.publicKey.verify(signature: bad.signature, for: bad.signingInput, algorithm: .rs256))
        case .noKeyID:
            #expect(bad.header == ["typ": "JWT", "alg": "RS256"])
            #expect(key.privateKey.publicKey.verify(signature: bad.signature, for: bad.signingInput, algorithm: .rs256))
        case .badSignature:
            #expect(bad.header == clean.header)
            #expect(!key.privateKey.publicKey.verify(signature: bad.signature, for: bad.signingInput, algorithm: .rs256))
            var mended = bad.signature
            mended[mended.count / 2] ^= 0x01
            #expect(key.privateKey.publicKey.verify(signature: mended, for: bad.signingInput, algorithm: .rs256))
        default:
            #expect(bad.header == clean.header)
            #expect(key.privateKey.publicKey.verify(signature: bad.signature, for: bad.signingInput, algorithm: .rs256))
        }
    }

    /// A clean header's text with `alg` changed to `none`, and nothing else.
    static func withAlgNone(_ header: String) -> String {
        header.replacing(#""alg":"RS256""#, with: #""alg":"none""#)
    }

    @Test("alg-none keeps the clean header (kid, and v1's x5t) in minted tokens, client credentials and the password grant",
          arguments: [TokenVersion.v1, .v2])
    func algNoneKeepsTheHeader(version: TokenVersion) throws {
        // Minted (`mockidp token --defect alg-none`): an ID token of the version asked for.
        func minted(_ defect: TokenDefect?) throws -> Parts {
            try Parts(try provider.minting.mint(MintRequest(kind: .id, tenant: Fixtures.contosoID, clientID: Fixtures.mobile,
                                                    username: "alice@contoso.onmicrosoft.com", idTokenVersion: version.rawValue,
                                                    baseURL: "https://localhost:8443", defect: defect)).get())
        }
        // The token endpoint of the version: client credentials, then a password grant's ID and access tokens.
        let path: ProtocolVersion = version == .v1 ? .v1 : .v2
        func issued(_ parameters: [(String, String)], _ names: [String]) throws -> [Parts] {
            let request = TokenRequest(tenant: Fixtures.contosoID, version: path, parameters: parameters.map { (name: $0.0, value: $0.1) })
            guard case .success(let response) = provider.token(request),
                  let body = response.body.objectValue else { Issue.record("no token response"); return [] }
            return try names.map { try Parts(try #require(body[$0]?.stringValue, "\($0)")) }
        }
        let credentials: [(String, String)] = version == .v1
            ? [("grant_type", "client_credentials"), ("client_id", Fixtures.daemon), ("client_secret", "daemon-secret"), ("resource", "api://contoso-api")]
            : [("grant_type", "client_credentials"), ("client_id", Fixtures.daemon), ("client_secret", "daemon-secret"), ("scope", "api://contoso-api/.default")]
        let password: [(String, String)] = [("grant_type", "password"), ("client_id", Fixtures.mobile), ("username", "alice@contoso.onmicrosoft.com"),
                                            ("password", "alice-password")]
            + (version == .v1 ? [("resource", "https://graph.microsoft.com")] : [("scope", "openid profile User.Read")])

        var pairs: [(String, Parts, Parts)] = [("minted", try minted(nil), try minted(.algNone))]
        let cleanCredentials = try issued(credentials, ["access_token"])
        let cleanPassword = try issued(password, ["id_token", "access_token"])
        _ = provider.controls.add(TamperFault(defect: .algNone, token: .all, remaining: 3))
        let badCredentials = try issued(credentials, ["access_token"])
        let badPassword = try issued(password, ["id_token", "access_token"])
        #expect(provider.controls.pendingTamperFaults.isEmpty)
        pairs += zip(cleanCredentials, badCredentials).map { ("client credentials", $0, $1) }
        pairs += zip(["ID token", "access token"], zip(cleanPassword, badPassword)).map { ("password \($0)", $1.0, $1.1) }
        #expect(pairs.count == 4)
        for (name, clean, bad) in pairs {
            #expect(clean.header["alg"] == "RS256" && clean.header["kid"] != nil, "\(name)")
            #expect(bad.headerText == Self.withAlgNone(clean.headerText), "\(name): \(bad.headerText)")
            #expect(bad.signature.isEmpty, "\(name)")
        }
        // A v1 token's header names its key twice, as `x5t` and `kid`; both stay.
        if version == .v1 { #expect(pairs[0].2.header["x5t"] == pairs[0].1.header["x5t"] && pairs[0].2.header["x5t"] != nil) }
    }

    @Test("a defect the token cannot carry is an error, never a clean token")
    func notApplicable() throws {
        let request = MintRequest(kind: .id, tenant: Fixtures.contosoID, clientID: Fixtures.mobile, username: "alice@contoso.onmicrosoft.com",
                                  baseURL: "https://localhost:8443", defect: .badCodeHash)
        guard case .failure(let error) = provider.minting.mint(request) else { Issue.record("a token without c_hash was minted"); return }
        #expect(error.reason.contains("c_hash") && error.reason.contains("wrong-audience"))
        #expect(!TokenDefect.badCodeHash.applies(to: .access) && TokenDefect.expired.applies(to: .access))
        #expect(TamperFault(defect: .noNonce, token: .access).problem?.contains("ID tokens only") == true)
        #expect(TamperFault(defect: .noNonce, token: .id).problem == nil)
    }

    @Test("a tamper fault goes into the next matching token of the normal flow, counted, then tokens are clean again")
    func tamperFaultInTheFlow() throws {
        _ = provider.controls.add(TamperFault(defect: .expired, token: .access, clientID: Fixtures.daemon, remaining: 1))
        func accessToken() throws -> Parts {
            let body = try #require(Fixtures.token(provider, [("grant_type", "client_credentials"), ("client_id", Fixtures.daemon),
                                                             ("client_secret", "daemon-secret"), ("scope", "api://contoso-api/.default")]).body)
            return try Parts(try #require(body["access_token"]?.stringValue))
        }
        let first = try accessToken()
        #expect(first.claims["exp"] == .int(Fixtures.now - 600))
        #expect(Fixtures.signingKey.privateKey.publicKey.verify(signature: first.signature, for: first.signingInput, algorithm: .rs256))
        #expect(try accessToken().claims["exp"] == .int(Fixtures.now + 3600))
        #expect(provider.controls.pendingTamperFaults.isEmpty)
    }

    @Test("a nonce defect waits for an ID token that has a nonce; another client's fault is left alone")
    func tamperFaultMatching() throws {
        _ = provider.controls.add(TamperFault(defect: .wrongNonce, token: .all, remaining: 1))
        _ = provider.controls.add(TamperFault(defect: .noSubject, token: .all, clientID: Fixtures.mobile, remaining: 1))
        let body = try #require(Fixtures.token(provider, [("grant_type", "client_credentials"), ("client_id", Fixtures.daemon),
                                                         ("client_secret", "daemon-secret"), ("scope", "api://contoso-api/.default")]).body)
        let claims = try Parts(try #require(body["access_token"]?.stringValue)).claims
        #expect(claims["sub"] != nil && claims["nonce"] == nil)
        #expect(provider.controls.pendingTamperFaults.map(\.defect) == [.wrongNonce, .noSubject])
    }
}
