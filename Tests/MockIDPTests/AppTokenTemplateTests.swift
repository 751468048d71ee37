import Logging
@testable import MockIDP
import MockIDPConfiguration
import MockIDPCore
import MockIDPHTTP
import MockIDPJOSE
import Synchronization
import Testing

/// A client-credentials request answered before answers again from its template (`AppTokenTemplate`, kept by the
/// token route's `AppTokenTemplates`): the answers must be the ones the whole token path gives, and the template
/// must never answer where the whole path would answer otherwise.
@Suite struct AppTokenTemplateTests {
    static let contoso = RoutesTests.contoso
    static let daemon = RoutesTests.daemon
    static let path = "/\(contoso)/oauth2/v2.0/token"
    static let form = "grant_type=client_credentials&client_id=\(daemon)&client_secret=daemon-secret&scope=api%3A%2F%2Fcontoso-api%2F.default"
    /// The same parameters in another order: the same answer from the whole path, never from a template of `form`.
    static let reordered = "client_id=\(daemon)&grant_type=client_credentials&scope=api%3A%2F%2Fcontoso-api%2F.default&client_secret=daemon-secret"

    /// Bytes 0, 1, 2, … : two providers given one each draw the same identifiers.
    final class CountingRandom: RandomSource {
        private let next = Mutex<UInt8>(0)
        func bytes(_ count: Int) -> [UInt8] {
            next.withLock { n in (0..<count).map { _ in defer { n &+= 1 }; return n } }
        }
    }

    struct Server {
        let provider: IdentityProvider
        let routes: Routes

        init(now: Int = 1_800_000_000, random: RandomSource = CountingRandom()) throws {
            let configuration = try ConfigurationLoader.load(paths: [])
            provider = IdentityProvider(configuration: configuration, signingKeys: [try #require(RoutesTests.signingKey)],
                                        clock: ProviderClock { Double(now) }, random: random)
            routes = Routes(provider: provider, options: ServerOptions(), logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        }

        func post(_ form: String, path: String = AppTokenTemplateTests.path, authorization: String? = nil) -> HTTPResponse {
            var headers: HTTPHeaders = ["Host": "localhost:8443", "Content-Type": "application/x-www-form-urlencoded"]
            if let authorization { headers["Authorization"] = authorization }
            return routes.respond(to: HTTPRequest(method: "POST", path: path, headers: headers, body: Array(form.utf8), isSecure: true))
        }

        /// How many answers the token route keeps as templates.
        var kept: Int { routes.handlers.appTokenTemplates.count }
    }

    private static func payload(_ response: HTTPResponse) throws -> JSONObject {
        let body = try #require(try JSONValue.parse(response.body).objectValue)
        return try CompactJWS(try #require(body["access_token"]?.stringValue)).payload
    }

    @Test("a repeated request's answer from the template is byte for byte the whole token path's")
    func sameBytes() throws {
        let templated = try Server(), whole = try Server()
        let first = templated.post(Self.form), again = templated.post(Self.form)
        #expect(templated.kept == 1)
        // The other server answers the second request by the whole path: the same parameters in another order.
        let wholeFirst = whole.post(Self.form), wholeAgain = whole.post(Self.reordered)
        #expect(first.status == .ok && again.status == .ok && wholeAgain.status == .ok)
        #expect(String(decoding: first.body, as: UTF8.self) == String(decoding: wholeFirst.body, as: UTF8.self))
        #expect(String(decoding: again.body, as: UTF8.self) == String(decoding: wholeAgain.body, as: UTF8.self))
        #expect(again.headers.map { "\($0.name): \($0.value)" } == wholeAgain.headers.map { "\($0.name): \($0.value)" })
        // And the two tokens differ where two tokens must: their identifiers.
        let one = try Self.payload(first), two = try Self.payload(again)
        #expect(one["uti"] != two["uti"] && one["aio"] != two["aio"] && one["rh"] != two["rh"])
        #expect(one["oid"] == two["oid"] && one["roles"] == ["Reader", "Writer"] && two["roles"] == ["Reader", "Writer"])
        let jws = try CompactJWS(try #require(try JSONValue.parse(again.body).objectValue?["access_token"]?.stringValue))
        #expect(jws.verify(with: templated.provider.snapshot().signingKeys[0].privateKey.publicKey))
    }

    @Test("a template fills in the clock's time for iat, nbf and exp")
    func clockMoves() throws {
        let server = try Server()
        _ = server.post(Self.form)
        server.provider.clock.advance(by: 600)
        let later = try Self.payload(server.post(Self.form))
        #expect(later["iat"]?.intValue == 1_800_000_600 && later["nbf"]?.intValue == 1_800_000_600)
        #expect(later["exp"]?.intValue == 1_800_000_600 + server.provider.snapshot().configuration.tokens.lifetime)
    }

    @Test("extra claims and tamper faults waiting, or a changed directory, send the request down the whole path")
    func fallsBack() throws {
        let server = try Server()
        _ = server.post(Self.form)
        _ = server.provider.controls.add(ExtraClaims(clientID: Self.daemon, claims: ["xms_test": "yes"]))
        #expect(try Self.payload(server.post(Self.form))["xms_test"] == "yes")
        #expect(try Self.payload(server.post(Self.form))["xms_test"] == nil)
        let key = try SigningKey.generate(validityDays: 1)
        server.provider.served.rotateSigningKey(to: key)
        let response = server.post(Self.form)
        let token = try #require(try JSONValue.parse(response.body).objectValue?["access_token"]?.stringValue)
        #expect(try CompactJWS(token).verify(with: key.privateKey.publicKey))
    }

    @Test("a changed directory, and a reset after it, send the request down the whole path")
    func directoryChanges() throws {
        let server = try Server()
        #expect(try Self.payload(server.post(Self.form))["roles"] == ["Reader", "Writer"])
        #expect(try Self.payload(server.post(Self.form))["roles"] == ["Reader", "Writer"])
        #expect(server.kept == 1)
        let apps = server.provider.snapshot().configuration.tenants.flatMap(\.apps)
        var daemon = try #require(apps.first { $0.clientID == Self.daemon })
        daemon.apiPermissions = daemon.apiPermissions.map { APIPermission(resource: $0.resource, values: $0.values.filter { $0 == "Reader" }) }
        #expect(server.provider.served.upsertApp(daemon, tenant: Self.contoso))
        #expect(try Self.payload(server.post(Self.form))["roles"] == ["Reader"])
        server.provider.reset()
        #expect(try Self.payload(server.post(Self.form))["roles"] == ["Reader", "Writer"])
    }

    @Test("a fault on the token endpoint answers in front of a template; the template answers after it")
    func faultsComeFirst() throws {
        let server = try Server()
        #expect(server.post(Self.form).status == .ok)
        var fault = Fault(endpoint: "token")
        fault.status = 503
        fault.remaining = 1
        _ = server.provider.controls.add(fault)
        #expect(server.post(Self.form).status.rawValue == 503)
        #expect(server.post(Self.form).status == .ok)
        #expect(server.kept == 1)
    }

    @Test("a request that differs by its Authorization header gets its own answer: a wrong secret stays wrong")
    func authorizationIsPartOfTheRequest() throws {
        let server = try Server()
        let form = "grant_type=client_credentials&scope=api%3A%2F%2Fcontoso-api%2F.default"
        let good = "Basic " + Base64URL.encodeStandard(Array("\(Self.daemon):daemon-secret".utf8))
        let bad = "Basic " + Base64URL.encodeStandard(Array("\(Self.daemon):wrong".utf8))
        #expect(server.post(form, authorization: good).status == .ok)
        #expect(server.post(form, authorization: good).status == .ok)
        let refused = server.post(form, authorization: bad)
        #expect(refused.status == .unauthorized)
        #expect(try JSONValue.parse(refused.body).objectValue?["error"] == "invalid_client")
    }

    @Test("answers a template cannot give again are not kept: a claims request, the v1 endpoint, large bodies")
    func notKept() throws {
        let server = try Server()
        let claims = "&claims=%7B%22access_token%22%3A%7B%22acrs%22%3A%7B%22essential%22%3Atrue%2C%22value%22%3A%22c1%22%7D%7D%7D"
        #expect(server.post(Self.form + claims).status == .ok)
        #expect(server.post("grant_type=client_credentials&client_id=\(Self.daemon)&client_secret=daemon-secret&resource=api%3A%2F%2Fcontoso-api",
                            path: "/\(Self.contoso)/oauth2/token").status == .ok)
        let padding = "&padding=" + String(repeating: "x", count: AppTokenTemplates.Key.largestBody)
        #expect(server.post(Self.form + padding).status == .ok)
        #expect(server.kept == 0)
    }

    @Test("requests on many threads, with the key rotated among them, all get tokens that verify with a published key")
    func concurrent() async throws {
        // The system's random bytes: the counting source repeats its draws every 32 tokens.
        let server = try Server(random: SystemRandom())
        let next = try SigningKey.generate(validityDays: 1)
        let keys = [try #require(RoutesTests.signingKey), next].map(\.privateKey.publicKey)
        let bodies = await withTaskGroup(of: [UInt8].self) { group in
            for n in 0..<64 {
                group.addTask {
                    if n == 32 { server.provider.served.rotateSigningKey(to: next) }
                    return server.post(n % 2 == 0 ? Self.form : Self.reordered).body
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        var identifiers = Set<String>()
        for body in bodies {
            let token = try #require(try JSONValue.parse(body).objectValue?["access_token"]?.stringValue)
            let jws = try CompactJWS(token)
            #expect(keys.contains { jws.verify(with: $0) })
            identifiers.insert(try #require(jws.payload["uti"]?.stringValue))
        }
        #expect(identifiers.count == 64)
        // After the rotation, the next answer is signed with the new key.
        let after = try #require(try JSONValue.parse(server.post(Self.form).body).objectValue?["access_token"]?.stringValue)
        #expect(try CompactJWS(after).verify(with: next.privateKey.publicKey))
    }

    @Test("no flood of distinct requests grows the templates past their capacity")
    func bounded() throws {
        let server = try Server()
        for n in 0..<(AppTokenTemplates.capacity + 10) {
            #expect(server.post(Self.form + "&n=\(n)").status == .ok)
            #expect(server.kept <= AppTokenTemplates.capacity)
        }
    }
}
