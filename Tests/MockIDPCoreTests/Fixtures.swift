import MockIDPCore
import MockIDPJOSE

/// One RSA key per test process (generation costs up to half a second), and a small directory.
enum Fixtures {
    static let signingKey: SigningKey = {
        do {
            return try SigningKey.generate(validityDays: 30)
        } catch {
            preconditionFailure("test key generation failed: \(error)")
        }
    }()

    static let contosoID = "6a1f3c1e-0d5b-4c36-9d62-2f0a8f4b7c11"
    static let fabrikamID = "2b7e151d-aed2-4a6b-9c1f-3d4e5f6a7b8c"
    static let mobile = "3f6c2b1a-8e4d-4f7a-b9c0-5d1e2f3a4b5c"
    static let daemon = "9b1e4c3d-2a5f-4e6b-8c7d-0e1f2a3b4c5d"
    static let api = "7c2d9e4f-1b3a-4c5d-8e6f-a0b1c2d3e4f5"
    static let shared = "11111111-2222-4333-8444-555555555555"
    static let aliceOID = "0c3e9d2a-5b7f-4e1a-9c8d-1f2e3d4c5b6a"

    static let configuration = IdentityProviderConfiguration(
        tokens: TokenSettings(lifetime: 3600, refreshLifetime: 7200, codeLifetime: 300),
        tenants: [
            Tenant(id: contosoID, domains: ["contoso.onmicrosoft.com"], name: "Contoso",
                   users: [
                       User(username: "alice@contoso.onmicrosoft.com", password: "alice-password", name: "Alice Adams",
                            objectID: aliceOID, email: "alice@contoso.com", groups: ["a8f2c1d4-7b3e-4f5a-9c6d-2e1f0a9b8c7d"],
                            roles: ["Reader"], claims: ["department": "Sales"]),
                       User(username: "bob@contoso.onmicrosoft.com", password: "bob-password", name: "Bob Brown",
                            objectID: User.derivedObjectID(tenantID: contosoID, username: "bob@contoso.onmicrosoft.com"),
                            requireMFA: true),
                   ],
                   apps: [
                       Application(clientID: mobile, type: .public, redirectURIs: ["http://localhost"]),
                       Application(clientID: daemon, type: .confidential, secret: "daemon-secret",
                                   apiPermissions: [APIPermission(resource: "api://contoso-api", values: ["Reader", "Writer"]),
                                                    APIPermission(resource: "https://graph.microsoft.com", values: ["User.Read.All"])]),
                       Application(clientID: api, type: .confidential, secret: "api-secret", identifierURIs: ["api://contoso-api"],
                                   scopes: ["access_as_user"], appRoles: ["Reader", "Writer"], accessTokenVersion: 2),
                   ]),
            Tenant(id: fabrikamID, domains: ["fabrikam.onmicrosoft.com"], name: "Fabrikam",
                   users: [User(username: "carol@fabrikam.onmicrosoft.com", password: "carol-password",
                                objectID: User.derivedObjectID(tenantID: fabrikamID, username: "carol@fabrikam.onmicrosoft.com"))],
                   apps: [Application(clientID: shared, type: .public, multiTenant: true)]),
        ])

    /// Contoso and its two users, as `configuration` declares them: Alice (in groups, a Reader) and Bob (MFA).
    static var contoso: Tenant { configuration.tenants[0] }
    static var alice: User { contoso.users[0] }
    static var bob: User { contoso.users[1] }

    static let now = 1_800_000_000

    static func provider(clock: ProviderClock = .fixed(now)) -> IdentityProvider {
        IdentityProvider(configuration: configuration, signingKeys: [signingKey], clock: clock)
    }

    static func token(_ provider: IdentityProvider, tenant: String = contosoID, _ parameters: [(String, String)]) -> Result<TokenResponse, OAuthError> {
        provider.token(TokenRequest(tenant: tenant, parameters: parameters.map { (name: $0.0, value: $0.1) }))
    }

    static func claims(_ token: String?) -> JSONObject {
        guard let token, let jws = try? CompactJWS(token) else { return [:] }
        return jws.payload
    }
}

extension Result where Success == TokenResponse, Failure == OAuthError {
    var body: JSONObject? { if case .success(let r) = self { r.body.objectValue } else { nil } }
    var error: OAuthError? { if case .failure(let e) = self { e } else { nil } }
}

/// What the edge does before Core runs, for tests that call Core directly.
extension IdentityProvider {
    /// The scope of a request to `https://host` (`https://localhost:8443` by default), with the dialect the edge resolves for `tenant` and
    /// `policy`; Entra's when resolving fails (callers that care use the overloads below).
    func testScope(at host: String? = nil, tenant: String? = nil, policy: String? = nil,
                   form: B2CPolicyForm = .query, version: ProtocolVersion = .v2) -> RequestScope {
        var scope = scope(host.map { RequestHost(baseURL: "https://\($0)", host: $0) } ?? RequestHost(baseURL: "https://localhost:8443", host: "localhost"))
        scope.dialect = .entra(version)
        if let tenant, case .success(let dialect) = Dialect.resolve(tenantSegment: tenant, policy: policy, form: form,
                                                                     version: version, in: scope.directory) {
            scope.dialect = dialect
        }
        return scope
    }

    /// The token endpoint as the edge runs it: the dialect resolved from the request's tenant and policy first.
    func token(_ request: TokenRequest, at host: String? = nil) -> Result<TokenResponse, OAuthError> {
        let directory = snapshot()
        switch Dialect.resolve(tenantSegment: request.tenant, policy: request.policy, form: request.policyForm, version: request.version, in: directory) {
        case .failure(let error): return .failure(error)
        case .success: return token(request, context: testScope(at: host, tenant: request.tenant, policy: request.policy,
                                                                 form: request.policyForm, version: request.version))
        }
    }

    /// The authorize checks as the edge runs them: a dialect that does not resolve is the error page.
    func checkAuthorization(_ request: AuthorizationRequest) -> AuthorizationDecision {
        switch Dialect.resolve(tenantSegment: request.tenant, policy: request.policy, form: request.policyForm, version: request.version, in: snapshot()) {
        case .failure(let error): return .errorPage(error)
        case .success: return authorizeEndpoint.checkAuthorization(request, scope: testScope(tenant: request.tenant, policy: request.policy,
                                                                             form: request.policyForm, version: request.version))
        }
    }
}
