import MockIDPCore
import MockIDPJOSE
import Synchronization
import Testing

/// Workload identity federation: the matcher, each refusal in Entra's order, and the key sources.
@Suite struct FederationTests {
    static let workload = "2d9a4e6f-3b5c-4a7d-8e8f-9a0b1c2d3e4f"
    static let cluster = "https://oidc.cluster.example/3f2a/"
    static let remoteIssuer = "https://issuer.example"
    static let subject = "system:serviceaccount:default:orders-worker"
    static let audience = "api://AzureADTokenExchange"
    static let ownIssuer = "https://localhost:8443/\(Fixtures.fabrikamID)/v2.0"

    /// The cluster's key (in a JWKS file) and the remote issuer's (behind a jwksUri).
    static let clusterKey = Fixtures.signingKey.privateKey
    static let remoteKey: PrivateKey = {
        do { return try PrivateKey.generateRSA() } catch { preconditionFailure("key generation failed: \(error)") }
    }()

    static func jwk(_ key: PrivateKey, id: String) -> JSONWebKey {
        guard let (n, e) = key.publicKey.rsaComponents else { preconditionFailure("an RSA key") }
        return JSONWebKey(keyType: "RSA", keyID: id, modulus: Base64URL.encode(n), exponent: Base64URL.encode(e))
    }

    /// A jwksUri served from memory, counting fetches.
    final class Remote: RemoteKeySetSource {
        let keys = Mutex<JSONWebKeySet?>(JSONWebKeySet(keys: [FederationTests.jwk(FederationTests.remoteKey, id: "remote-1")]))
        let fetches = Mutex(0)
        func keySet(at url: String, wanting keyID: String?) -> Result<JSONWebKeySet, KeySetProblem> {
            fetches.withLock { $0 += 1 }
            guard url == "https://issuer.example/jwks", let set = keys.withLock({ $0 }) else {
                return .failure(KeySetProblem(description: "answered HTTP 503"))
            }
            return .success(set)
        }
    }

    static func provider(remote: Remote = Remote()) -> IdentityProvider {
        var configuration = Fixtures.configuration
        var app = Application(clientID: workload, apiPermissions: [APIPermission(resource: "api://contoso-api", values: ["Reader"])])
        app.federatedCredentials = [
            FederatedCredential(issuer: cluster, subject: subject, audiences: [audience]),
            FederatedCredential(issuer: remoteIssuer, subject: "repo:contoso/orders:ref:refs/heads/main", audiences: [audience]),
            FederatedCredential(issuer: ownIssuer, subject: Fixtures.shared, audiences: [Fixtures.api]),
        ]
        configuration.tenants[0].apps.append(app)
        configuration.trustedIssuers = [
            TrustedIssuer(issuer: cluster, keys: .file(source: "cluster.json", keySet: JSONWebKeySet(keys: [jwk(clusterKey, id: "cluster-1")]))),
            TrustedIssuer(issuer: remoteIssuer, keys: .uri("https://issuer.example/jwks")),
        ]
        return IdentityProvider(configuration: configuration, signingKeys: [Fixtures.signingKey], clock: .fixed(Fixtures.now),
                                remoteKeySets: remote)
    }

    static func token(issuer: String = cluster, subject: String = subject, audience: JSONValue = ["api://AzureADTokenExchange"],
                      exp: Int = Fixtures.now + 600, nbf: Int? = nil, kid: String? = "cluster-1", key: PrivateKey = clusterKey,
                      algorithm: SignatureAlgorithm = .rs256) throws -> String {
        var payload: JSONObject = ["iss": .string(issuer), "sub": .string(subject), "aud": audience, "exp": .int(exp),
                                   "iat": .int(Fixtures.now)]
        if let nbf { payload["nbf"] = .int(nbf) }
        var header: JSONObject = ["typ": "JWT"]
        if let kid { header["kid"] = .string(kid) }
        return try JSONWebSignature.sign(header: header, payload: payload, key: key, algorithm: algorithm)
    }

    static func exchange(_ provider: IdentityProvider, _ assertion: String, client: String = workload) -> Result<TokenResponse, OAuthError> {
        Fixtures.token(provider, [("grant_type", "client_credentials"), ("client_id", client),
                                  ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"),
                                  ("client_assertion", assertion), ("scope", "api://contoso-api/.default")])
    }

    @Test("the matcher finds the credential whose issuer, one audience and subject equal the token's, case included")
    func matcher() {
        var app = Application(clientID: Self.workload)
        let assertion = FederatedAssertion(issuer: Self.cluster, subject: Self.subject, audiences: ["other", Self.audience])
        #expect(app.federatedCredential(accepting: assertion) == .failure(.noCredentials))
        app.federatedCredentials = [FederatedCredential(issuer: "https://elsewhere.example", subject: Self.subject, audiences: [Self.audience])]
        #expect(app.federatedCredential(accepting: assertion) == .failure(.issuer))
        app.federatedCredentials.append(FederatedCredential(issuer: Self.cluster, subject: Self.subject, audiences: ["api://Other"]))
        #expect(app.federatedCredential(accepting: assertion) == .failure(.audience))
        app.federatedCredentials.append(FederatedCredential(issuer: Self.cluster, subject: Self.subject.uppercased(), audiences: [Self.audience]))
        #expect(app.federatedCredential(accepting: assertion) == .failure(.subject))
        let match = FederatedCredential(issuer: Self.cluster, subject: Self.subject, audiences: [Self.audience])
        app.federatedCredentials.append(match)
        #expect(app.federatedCredential(accepting: assertion) == .success(match))
        #expect(app.federatedCredential(accepting: FederatedAssertion(issuer: Self.cluster.uppercased(), subject: Self.subject,
                                                                      audiences: [Self.audience])) == .failure(.issuer))
    }

    @Test("a projected token from a JWKS-file issuer is the app's credential: a token with azpacr 2")
    func acceptedFromFile() throws {
        let body = try #require(Self.exchange(Self.provider(), try Self.token()).body)
        let claims = Fixtures.claims(body["access_token"]?.stringValue)
        #expect(claims["appid"]?.stringValue == Self.workload || claims["azp"]?.stringValue == Self.workload)
        #expect(claims["roles"] == ["Reader"])
        #expect((claims["azpacr"] ?? claims["appidacr"])?.stringValue == "2")
    }

    @Test("aud may be a string or a list; a token naming no key id is checked against every key of the issuer")
    func audienceShapesAndNoKeyID() throws {
        let provider = Self.provider()
        #expect(Self.exchange(provider, try Self.token(audience: .string(Self.audience))).body != nil)
        #expect(Self.exchange(provider, try Self.token(audience: ["first", .string(Self.audience)], kid: nil)).body != nil)
    }

    @Test("a jwksUri issuer's keys come from the remote key source, asked for the token's kid")
    func acceptedFromURI() throws {
        let remote = Remote()
        let provider = Self.provider(remote: remote)
        let token = try Self.token(issuer: Self.remoteIssuer, subject: "repo:contoso/orders:ref:refs/heads/main", kid: "remote-1", key: Self.remoteKey)
        #expect(Self.exchange(provider, token).body != nil)
        #expect(remote.fetches.withLock { $0 } == 1)
        remote.keys.withLock { $0 = nil }
        let unavailable = try #require(Self.exchange(provider, token).error)
        #expect(unavailable.aadsts == 90061 && unavailable.code == .invalidRequest && unavailable.status == 400)
        #expect(unavailable.reason.contains("HTTP 503"))
    }

    @Test("a v2 token of this server's own tenant is trusted without configuration, checked with the server's keys")
    func ownTenantIssuer() throws {
        let own = try Self.token(issuer: Self.ownIssuer, subject: Fixtures.shared, audience: .string(Fixtures.api),
                                 kid: Fixtures.signingKey.keyID, key: Fixtures.signingKey.privateKey)
        #expect(Self.exchange(Self.provider(), own).body != nil)
        let forged = try Self.token(issuer: Self.ownIssuer, subject: Fixtures.shared, audience: .string(Fixtures.api),
                                    kid: Fixtures.signingKey.keyID, key: Self.remoteKey)
        #expect(Self.exchange(Self.provider(), forged).error?.aadsts == 700027)
        #expect(TrustedIssuer.ownTenantID(ofIssuer: "https://login.microsoftonline.com/\(Fixtures.fabrikamID)/v2.0") == Fixtures.fabrikamID)
        #expect(TrustedIssuer.ownTenantID(ofIssuer: "https://sts.windows.net/\(Fixtures.fabrikamID)/") == nil)
        #expect(TrustedIssuer.ownTenantID(ofIssuer: "https://localhost/\(Fixtures.fabrikamID)/v2.0/extra") == nil)
    }

    @Test("each refusal is Entra's code, checked in Entra's order: credential, issuer, audience, subject, time, signature",
          arguments: [
            ("no federated credential", Fixtures.daemon, Self.cluster, Self.subject, Self.audience, 0, "cluster-1", false, 70021),
            ("issuer", Self.workload, "https://other.example", Self.subject, Self.audience, 0, "cluster-1", true, 700211),
            ("audience", Self.workload, Self.cluster, Self.subject, "api://Other", 0, "cluster-1", true, 700212),
            ("subject", Self.workload, Self.cluster, Self.subject.uppercased(), Self.audience, 0, "cluster-1", true, 700213),
            ("expired", Self.workload, Self.cluster, Self.subject, Self.audience, -301, "cluster-1", true, 700024),
            ("not yet valid", Self.workload, Self.cluster, Self.subject, Self.audience, 301, "cluster-1", false, 700024),
            ("signature", Self.workload, Self.cluster, Self.subject, Self.audience, 0, "cluster-1", true, 700027),
            ("unknown kid", Self.workload, Self.cluster, Self.subject, Self.audience, 0, "cluster-9", false, 7000272),
          ])
    func refusals(why: String, client: String, issuer: String, subject: String, audience: String, shift: Int, kid: String,
                  wrongKey: Bool, code: Int) throws {
        // Every failing case but its own passes the later steps' checks only where noted: a wrong key as well
        // shows the earlier step wins.
        let exp = shift < 0 ? Fixtures.now + shift : Fixtures.now + 600
        let nbf = shift > 0 ? Fixtures.now + shift : nil
        let token = try Self.token(issuer: issuer, subject: subject, audience: .string(audience), exp: exp, nbf: nbf, kid: kid,
                                   key: wrongKey ? Self.remoteKey : Self.clusterKey)
        let error = try #require(Self.exchange(Self.provider(), token, client: client).error, "\(why)")
        #expect(error.aadsts == code, "\(why)")
        #expect(error.status == 401 && error.code == .invalidClient, "\(why)")
        #expect(!error.reason.isEmpty)
    }

    @Test("alg none and HS256 are refused as a failed signature, however the token matches")
    func algorithms() throws {
        let provider = Self.provider()
        let payload = Base64URL.encode(Array(#"{"iss":"\#(Self.cluster)","sub":"\#(Self.subject)","aud":"\#(Self.audience)","exp":\#(Fixtures.now + 60)}"#.utf8))
        for header in [#"{"alg":"none","kid":"cluster-1"}"#, #"{"alg":"HS256","kid":"cluster-1"}"#] {
            let token = Base64URL.encode(Array(header.utf8)) + "." + payload + "." + Base64URL.encode([1, 2, 3])
            let error = try #require(Self.exchange(provider, token).error)
            #expect(error.aadsts == 700027 && error.reason.contains("RS256"))
        }
        let ps256 = try Self.token(algorithm: .ps256)
        #expect(Self.exchange(provider, ps256).error?.aadsts == 700027)
    }

    @Test("a token without sub, or with an aud that is neither a string nor strings, is malformed (50027)")
    func malformed() throws {
        let provider = Self.provider()
        #expect(Self.exchange(provider, try Self.token(audience: .int(3))).error?.aadsts == 50027)
        #expect(Self.exchange(provider, try Self.token(audience: [])).error?.aadsts == 50027)
    }

    @Test("a certificate assertion naming another app's GUID stays AADSTS700021, not a federated token")
    func guidIssuerIsNotFederated() {
        let app = Application(clientID: Self.workload)
        #expect(!FederatedAssertion.isFederatedIssuer(Fixtures.daemon, client: app))
        #expect(FederatedAssertion.isFederatedIssuer(Self.cluster, client: app))
    }
}
