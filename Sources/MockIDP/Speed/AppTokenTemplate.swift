import MockIDPCore
import MockIDPJOSE

/// A client-credentials answer taken apart once, so that the same request answers again by filling in what differs
/// between two tokens: `iat`, `nbf` and `exp` from the clock, and `aio`, `rh` and `uti` from new random bytes.
/// Core says when an answer may be taken apart (`AppTokenFacts`); everything else in it follows from the request and
/// the directory snapshot of the facts' generation.
///
/// The token is signed anew for each answer, with the key and algorithm that signed the first. The tests check that
/// an answer from a template is byte for byte the answer the whole path gives (`AppTokenTemplateTests`).
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

    /// The template of `body`, the serialized answer that carries `facts.token`; nil when the token's payload does
    /// not hold each slot once, its times as the facts say and its opaque claims as strings of base64url.
    init?(body: [UInt8], facts: AppTokenFacts) {
        let tokenBytes = Array(facts.token.utf8)
        let parts = tokenBytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3, let start = body.firstRange(of: tokenBytes)?.lowerBound,
              let payload = Base64URL.decode(String(decoding: parts[1], as: UTF8.self)) else { return nil }
        let issuedAt = facts.issuedAt
        let wanted: [(Slot, String, Int?)] = [(.issuedAt, "iat", issuedAt), (.notBefore, "nbf", issuedAt),
                                              (.expires, "exp", issuedAt + facts.lifetime), (.aio, "aio", nil),
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
        generation = facts.generation
        lifetime = facts.lifetime
        key = facts.key
        algorithm = facts.algorithm
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
    func response(issuedAt: Int, opaque: OpaqueClaims) throws(OpenSSLError) -> [UInt8] {
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
