import MockIDPCore
import MockIDPHTTP
import Synchronization

/// The token route's speed shortcut, the one place where it stands: a client-credentials request answered before,
/// byte for byte, answers again from a template of its first answer (`AppTokenTemplate`) without reaching Core.
///
/// The token route hands it the request and the call into Core (`answer`). A template is looked up by the raw
/// request (`Key`) here, at the edge; Core never sees the request's bytes for it. On a miss Core answers, the answer
/// is serialized once, and a template is kept from those bytes when Core's answer carries `AppTokenFacts`.
///
/// A template answers only in the directory generation it was made in (any change through the control API, a key
/// rotation, a configuration reload or a reset starts a new one), and only while no extra claims or tamper faults of
/// the control API wait; faults apply in front of the route as before, and the clock is read for every answer. At
/// most `capacity` are kept, all of one generation, each under `Key.largestBody` of body, so no flood of distinct
/// requests grows the server: a new one that finds them all full drops them all.
final class AppTokenTemplates: Sendable {
    static let capacity = 64
    private let table = Mutex(Table())

    /// What decides a token request's answer besides the clock, randomness, the directory snapshot and the control
    /// API's registrations: the request as it came (path, host, `Authorization`, form body). Two requests with the
    /// same key parse to the same parameters, name the same client with the same secret, and ask for the same API.
    struct Key: Hashable, Sendable {
        var path: String
        /// `RequestScope.baseURL` and `host`: they decide the cloud and the issuer.
        var baseURL: String
        var host: String
        var authorization: String?
        var body: [UInt8]

        /// Bodies larger than this are never kept: a client-credentials form is a few hundred bytes.
        static let largestBody = 1024

        /// The key of a v2 token request without a query, or nil when its answer is never kept (a larger body).
        init?(_ request: HTTPRequest, scope: RequestScope) {
            guard request.body.count <= Self.largestBody else { return nil }
            path = request.path
            baseURL = scope.baseURL
            host = scope.host
            authorization = request.headers["Authorization"]
            body = request.body
        }

        // The body hashed as one run of bytes, not through `[UInt8]`'s own conformance, which feeds it a byte at a time.
        func hash(into hasher: inout Hasher) {
            hasher.combine(path)
            hasher.combine(baseURL)
            hasher.combine(host)
            hasher.combine(authorization)
            hasher.combine(body.count)
            body.withUnsafeBytes { hasher.combine(bytes: $0) }
        }

        static func == (a: Key, b: Key) -> Bool {
            a.path == b.path && a.baseURL == b.baseURL && a.host == b.host && a.authorization == b.authorization
                && a.body == b.body
        }
    }

    /// The templates of the requests answered lately, all of one directory generation: a template of a newer one
    /// drops the others (and with them any key the directory no longer signs with).
    private struct Table: Sendable {
        var generation = 0
        var templates: [Key: AppTokenTemplate] = [:]

        func template(_ key: Key, generation: Int) -> AppTokenTemplate? {
            guard generation == self.generation else { return nil }
            return templates[key]
        }

        mutating func keep(_ template: AppTokenTemplate, for key: Key) {
            if template.generation != generation {
                // An answer of an older directory, finished after a newer one was kept, is not kept.
                guard template.generation > generation else { return }
                templates.removeAll()
                generation = template.generation
            }
            if templates.count >= AppTokenTemplates.capacity, templates[key] == nil {
                templates.removeAll(keepingCapacity: true)
            }
            templates[key] = template
        }
    }

    /// The token route's answer to `request`: from a template when the same request was answered before in the
    /// scope's directory generation and nothing waits to change a token; else `core`'s answer, serialized once, and
    /// kept as a template when Core says it may be (`TokenResponse.appToken`). Only v2 requests without a query are
    /// looked up or kept.
    func answer(_ request: HTTPRequest, version: ProtocolVersion, scope: RequestScope, provider: IdentityProvider,
                core: () throws(OAuthError) -> TokenResponse) throws(OAuthError) -> [UInt8] {
        let key = version == .v2 && request.query.isEmpty ? Key(request, scope: scope) : nil
        if let key, let body = repeated(key, scope: scope, provider: provider) { return body }
        let response = try core()
        let body = response.body.serialized()
        if let key, let facts = response.appToken, let template = AppTokenTemplate(body: body, facts: facts) {
            table.withLock { $0.keep(template, for: key) }
        }
        return body
    }

    /// The answer to a request answered before in this directory generation, with a new token; nil when there is
    /// none to give this way (the whole token path answers it then).
    private func repeated(_ key: Key, scope: RequestScope, provider: IdentityProvider) -> [UInt8]? {
        guard let template = table.withLock({ $0.template(key, generation: scope.directory.generation) }),
              provider.controls.leaveTokensAlone else { return nil }
        return try? template.response(issuedAt: provider.clock.now(), opaque: OpaqueClaims(provider.random))
    }

    /// How many answers are kept as templates (tests).
    var count: Int { table.withLock { $0.templates.count } }
}
