import MockIDPJOSE
import Synchronization

/// What decides a token request's answer besides the clock, randomness, the directory snapshot and the control
/// API's registrations: the request as it came (path, host, `Authorization`, form body). Two requests with the
/// same key parse to the same parameters, name the same client with the same secret, and ask for the same API.
package struct TokenRequestKey: Hashable, Sendable {
    package var path: String
    /// `RequestScope.baseURL` and `host`: they decide the cloud and the issuer.
    package var baseURL: String
    package var host: String
    package var authorization: String?
    package var body: [UInt8]

    /// Bodies larger than this are never kept: a client-credentials form is a few hundred bytes.
    package static let largestBody = 1024

    /// The key of a v2 token request, or nil when its answer is never kept (a larger body).
    package init?(path: String, baseURL: String, host: String, authorization: String?, body: [UInt8]) {
        guard body.count <= Self.largestBody else { return nil }
        self.path = path
        self.baseURL = baseURL
        self.host = host
        self.authorization = authorization
        self.body = body
    }

    // The body hashed as one run of bytes: `[UInt8]`'s own conformance feeds the hasher a byte at a time.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(baseURL)
        hasher.combine(host)
        hasher.combine(authorization)
        hasher.combine(body.count)
        body.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    package static func == (a: TokenRequestKey, b: TokenRequestKey) -> Bool {
        a.path == b.path && a.baseURL == b.baseURL && a.host == b.host && a.authorization == b.authorization
            && a.body == b.body
    }
}

/// The answer to a client-credentials request, taken apart once so that the same request answers again by
/// filling in what differs between two tokens: `iat`, `nbf` and `exp` from the clock, and `aio`, `rh` and `uti`
/// from new random bytes. Everything else in an app-only token and its response follows from the request, the
/// directory snapshot and the control API's registrations, so a template is kept only for a snapshot's generation,
/// for a request authenticated by a client secret (an assertion's `jti` is used once, and a federated credential's
/// token expires), and only while no claims or tamper faults are registered; a token with optional claims (its
/// `ipaddr` is the caller's address) or with a `claims` request is never kept.
///
/// The token is signed anew for each answer, with the key its snapshot signs with. Where the template holds:
/// `clientCredentials` builds it from the first answer; `EndpointHandlers.token` looks it up before parsing the
/// form. The tests check that an answer from a template is byte for byte the answer the whole path gives.
struct AppTokenTemplate: Sendable {
    enum Slot: Sendable {
        case issuedAt, notBefore, expires, aio, refreshHint, tokenIdentifier
    }

    let generation: Int
    let lifetime: Int
    let key: PrivateKey
    let algorithm: SignatureAlgorithm
    /// The response up to the token's payload: its JSON up to the token, the header's base64url and a dot.
    let head: [UInt8]
    /// Where the token (the signing input) starts in `head`.
    let tokenStart: Int
    /// The payload's JSON around the slots: one piece more than `slots`.
    let pieces: [[UInt8]]
    let slots: [Slot]
    /// The response after the token.
    let tail: [UInt8]

    /// The template of `body`, a response carrying `token` whose payload's times are `issuedAt` and `issuedAt +
    /// lifetime`; nil when the payload does not hold each slot once, as a number or a string of base64url.
    init?(body: [UInt8], token: String, issuedAt: Int, lifetime: Int, key: PrivateKey, algorithm: SignatureAlgorithm,
          generation: Int) {
        let tokenBytes = Array(token.utf8)
        let parts = tokenBytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3, let start = body.firstRange(of: tokenBytes)?.lowerBound,
              let payload = Base64URL.decode(String(decoding: parts[1], as: UTF8.self)) else { return nil }
        let wanted: [(Slot, String, Int?)] = [(.issuedAt, "iat", issuedAt), (.notBefore, "nbf", issuedAt),
                                              (.expires, "exp", issuedAt + lifetime), (.aio, "aio", nil),
                                              (.refreshHint, "rh", nil), (.tokenIdentifier, "uti", nil)]
        var found: [(slot: Slot, value: Range<Int>)] = []
        for (slot, name, number) in wanted {
            guard let value = Self.value(of: name, in: payload, number: number) else { return nil }
            found.append((slot, value))
        }
        found.sort { $0.value.lowerBound < $1.value.lowerBound }
        var pieces: [[UInt8]] = []
        var from = 0
        for (_, value) in found {
            pieces.append(Array(payload[from..<value.lowerBound]))
            from = value.upperBound
        }
        pieces.append(Array(payload[from...]))
        self.generation = generation
        self.lifetime = lifetime
        self.key = key
        self.algorithm = algorithm
        head = Array(body[..<(start + parts[0].count + 1)])
        tokenStart = start
        self.pieces = pieces
        slots = found.map(\.slot)
        tail = Array(body[(start + tokenBytes.count)...])
    }

    /// Where the value of the top-level member `name` lies in `payload`, when the member is there once: `number`
    /// when given, else a string of base64url characters (what `OpaqueClaims` draws).
    private static func value(of name: String, in payload: [UInt8], number: Int?) -> Range<Int>? {
        let member = Array("\"\(name)\":".utf8)
        guard let range = payload.firstRange(of: member),
              payload[range.upperBound...].firstRange(of: member) == nil else { return nil }
        let start = range.upperBound
        if let number {
            let digits = Array(String(number).utf8)
            guard payload[start...].starts(with: digits) else { return nil }
            let end = start + digits.count
            guard end == payload.count || !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(payload[end]) else { return nil }
            return start..<end
        }
        guard start < payload.count, payload[start] == UInt8(ascii: "\"") else { return nil }
        guard let close = payload[(start + 1)...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        return start..<(close + 1)
    }

    /// The response with a new token: times from `issuedAt`, opaque claims from `opaque`.
    func response(issuedAt: Int, opaque: TokenFactory.OpaqueClaims) throws(OpenSSLError) -> [UInt8] {
        var payload: [UInt8] = []
        payload.reserveCapacity(pieces.reduce(0) { $0 + $1.count } + 200)
        for (i, slot) in slots.enumerated() {
            payload.append(contentsOf: pieces[i])
            switch slot {
            // As `ClaimsWriter` writes them.
            case .issuedAt, .notBefore: JSONText.appendInt(issuedAt, to: &payload)
            case .expires: JSONText.appendInt(issuedAt + lifetime, to: &payload)
            case .aio: JSONText.appendString(opaque.aio, to: &payload)
            case .refreshHint: JSONText.appendString(opaque.refreshHint, to: &payload)
            case .tokenIdentifier: JSONText.appendString(opaque.tokenIdentifier, to: &payload)
            }
        }
        payload.append(contentsOf: pieces[pieces.count - 1])
        var out = head
        out.reserveCapacity(head.count + (payload.count + 2) / 3 * 4 + 1 + 344 + tail.count)
        try PreparedJWSHeader.appendSigned(payload, key: key, algorithm: algorithm, signingFrom: tokenStart, to: &out)
        out.append(contentsOf: tail)
        return out
    }
}

/// The templates of the client-credentials requests answered lately, all of one directory generation: a template of
/// a newer one drops the others (and with them any key the directory no longer signs with). At most `capacity` are
/// kept, each under `TokenRequestKey.largestBody` of key, so no flood of distinct requests grows the server: a new
/// one that finds them all full drops them all.
package struct AppTokenTemplates: Sendable {
    package static let capacity = 64
    private var generation = 0
    private var templates: [TokenRequestKey: AppTokenTemplate] = [:]

    func template(_ key: TokenRequestKey, generation: Int) -> AppTokenTemplate? {
        guard generation == self.generation else { return nil }
        return templates[key]
    }

    mutating func keep(_ template: AppTokenTemplate, for key: TokenRequestKey) {
        if template.generation != generation {
            // An answer of an older directory, finished after a newer one was kept, is not kept.
            guard template.generation > generation else { return }
            templates.removeAll()
            generation = template.generation
        }
        if templates.count >= Self.capacity, templates[key] == nil {
            templates.removeAll(keepingCapacity: true)
        }
        templates[key] = template
    }

    var count: Int { templates.count }
}

/// The templates, under their own lock.
final class AppTokenTemplateStore: Sendable {
    private let templates = Mutex(AppTokenTemplates())

    func template(_ key: TokenRequestKey, generation: Int) -> AppTokenTemplate? {
        templates.withLock { $0.template(key, generation: generation) }
    }

    func keep(_ template: AppTokenTemplate, for key: TokenRequestKey) { templates.withLock { $0.keep(template, for: key) } }

    var count: Int { templates.withLock { $0.count } }
}

extension IdentityProvider {
    /// The answer to a client-credentials request answered before in this directory generation, with a new
    /// token; nil when there is none to give this way (the whole token path answers it then).
    package func repeatedAppToken(_ key: TokenRequestKey, context: RequestScope) -> [UInt8]? {
        let generation = context.directory.generation
        guard let template = appTokenTemplates.template(key, generation: generation), controls.leaveTokensAlone else { return nil }
        return try? template.response(issuedAt: clock.now(), opaque: TokenFactory.OpaqueClaims(random))
    }

    /// Keeps the template of a client-credentials answer for `request.key`, when the answer is one of those a
    /// template can give again (see `AppTokenTemplate`).
    func keepAppTokenTemplate(_ response: TokenResponse, token: String, request: TokenRequest, grant: Grant,
                              factory: TokenFactory, context: RequestScope, directory: Directory) {
        guard let key = request.key, grant.clientAuthentication == .secret, context.claims == nil,
              factory.extraClaims.isEmpty, factory.tamper == nil,
              grant.applicationResource?.optionalAccessTokenClaims.isEmpty == true,
              let version = grant.applicationResource?.tokenVersion,
              let template = AppTokenTemplate(body: response.body.serialized(), token: token, issuedAt: grant.issuedAt,
                                              lifetime: factory.lifetime, key: factory.key.privateKey,
                                              algorithm: factory.key.header(version: version).algorithm,
                                              generation: directory.generation) else { return }
        appTokenTemplates.keep(template, for: key)
    }

    /// How many answers are kept as templates (tests).
    package func keptAppTokenTemplates() -> Int { appTokenTemplates.count }
}
